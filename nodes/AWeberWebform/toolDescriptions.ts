import { toolDescriptions } from '../shared/toolDescription';

/** What an AI agent reads about each web form, split test and split test component operation (docs/ai-agents.md). */
export const webformToolDescriptions = [
	...toolDescriptions('webForm', {
		get: {
			does: 'Read one sign-up form of a list with its displays, submissions and conversion rates',
			needs: 'the list and the web form ID',
			returns: 'the web form',
		},
		getAll: {
			does: 'List the sign-up forms of a list',
			needs: 'the list',
			returns: 'the web forms (ID, name, displays, submissions), up to the limit set',
		},
		getAllForAccount: {
			does: 'List the sign-up forms of every list of the account',
			needs: 'the account',
			returns: 'the web forms with their lists, up to the limit set',
		},
	}),
	...toolDescriptions('splitTest', {
		get: {
			does: 'Read one web form split test of a list',
			needs: 'the list and the split test ID',
			returns: 'the split test',
		},
		getAll: {
			does: 'List the web form split tests of a list',
			needs: 'the list',
			returns: 'the split tests, up to the limit set',
		},
		getAllForAccount: {
			does: 'List the web form split tests of every list of the account',
			needs: 'the account',
			returns: 'the split tests with their lists, up to the limit set',
		},
	}),
	...toolDescriptions('splitTestComponent', {
		get: {
			does: 'Read one web form of a split test with its weight and the displays it had in the test',
			needs: 'the list, the split test ID and the component ID',
			returns: 'the component',
		},
		getAll: {
			does: 'List the web forms taking part in a split test, with their weights',
			needs: 'the list and the split test ID',
			returns: 'the components, up to the limit set',
		},
	}),
];
