// Failures that did not come from AWeber: a fault in the package's own code (a TypeError) keeps its own words rather
// than reading as "AWeber request failed", and a rejection with no error object (undefined, null, a text) is read as
// "nothing AWeber said" instead of failing while it is read (the mutation runs of errors.ts, test/mutation/runs.json).
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError, AweberRequestError, readAweberFailure } from '../../nodes/shared/errors';

const node = { name: 'AWeber', type: 'n8n-nodes-aweber.aWeberSubscriber', typeVersion: 1, position: [0, 0], parameters: {} } as unknown as INode;

describe('failures that are not AWeber\'s answer', () => {
	it("the package's own fault is an n8n error with its own message, for its item", () => {
		const error = asNodeError(node, new TypeError('value.trim is not a function'), 3, undefined, false);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toBe('value.trim is not a function');
		expect(error.context.itemIndex).toBe(3);
	});

	it("a request's failure that n8n did not wrap is read as what AWeber (or the network) answered", () => {
		const error = asNodeError(node, Object.assign(new Error('socket hang up'), { httpCode: 'ECONNRESET' }), 0);
		expect(error).toBeInstanceOf(AweberRequestError);
		expect((error as AweberRequestError).aweberFailure).toMatchObject({ code: 'ECONNRESET', message: 'socket hang up' });
	});

	it.each([
		['undefined', undefined],
		['null', null],
		['a text', 'Forbidden'],
		['a number', 403],
	])('a rejection with %s says nothing AWeber answered', (_case, thrown) => {
		expect(readAweberFailure(thrown)).toEqual({});
	});
});
