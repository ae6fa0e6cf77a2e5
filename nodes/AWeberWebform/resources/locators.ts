import { aweberLocator } from '../../shared/descriptions';

export const webFormLocator = aweberLocator({
	name: 'webFormId',
	displayName: 'Web Form',
	searchMethod: 'searchWebForms',
	urlSegment: 'web_forms',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/web_forms/801',
	idPlaceholder: '801',
});

export const splitTestLocator = aweberLocator({
	name: 'splitTestId',
	displayName: 'Split Test',
	searchMethod: 'searchSplitTests',
	urlSegment: 'web_form_split_tests',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/web_form_split_tests/901',
	idPlaceholder: '901',
});

/** Component ids are strings such as `901-801` (split test and web form), not plain numbers. */
export const splitTestComponentLocator = aweberLocator({
	name: 'splitTestComponentId',
	displayName: 'Split Test Component',
	searchMethod: 'searchSplitTestComponents',
	urlSegment: 'components',
	urlExample: 'https://api.aweber.com/1.0/accounts/123456/lists/654321/web_form_split_tests/901/components/901-801',
	idPlaceholder: '901-801',
	idPattern: '^[\\w-]{1,64}$',
});
