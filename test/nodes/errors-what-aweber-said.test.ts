// What a user reads when AWeber refuses a request, for each shape of refusal AWeber's APIs answer
// (docs/aweber-behaviour.md): the error's message is AWeber's own words, and its description lists the hint,
// AWeber's error type, the HTTP status and AWeber's documentation link, each only when AWeber gave it.
import { useTestbed } from '../harness/aweber';
import { apiCalls, byId } from './email-nodes.helpers';

describe("An AWeber refusal as the user reads it: AWeber's message, type, status and documentation link", () => {
	const bed = useTestbed();

	/** Account Get, whose one request AWeber answers with `status` and `body` instead of the account. */
	const getAccountAnswered = async (status: number, body: unknown) => {
		bed.sandbox.faults.next(1, 'answer', { status, body, pathPrefix: '/1.0/accounts' });
		const result = await bed.harness.runNode({
			type: 'aWeberAccount',
			credentialId: bed.credentialId,
			parameters: { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) },
		});
		expect(result.status).toBe('error');
		// A refusal is not sent again.
		expect(apiCalls(bed)).toHaveLength(1);
		return result.error!;
	};

	it("AWeber's error object: its message, then its type, the status and its documentation link, one a line", async () => {
		const error = await getAccountAnswered(400, {
			error: {
				status: 400,
				type: 'WebAPIError',
				message: 'The request could not be understood.',
				documentation_url: 'https://api.aweber.com/#tag/Troubleshooting',
			},
		});
		expect(error.message).toBe('The request could not be understood.');
		expect(error.description).toBe('AWeber error type: WebAPIError\nHTTP status: 400\nDocumentation: https://api.aweber.com/#tag/Troubleshooting');
	});

	it("AWeber's own words even when they hold what n8n takes for a system error code (\"eperm\" in an address)", async () => {
		const error = await getAccountAnswered(400, { error: { status: 400, type: 'WebAPIError', message: 'Invalid email address: helen.keeperman@example' } });
		// n8n alone would say "Operation not permitted, make sure you have the right permissions".
		expect(error.message).toBe('Invalid email address: helen.keeperman@example');
	});

	it("AWeber's error object without a documentation link or type: no empty lines for them", async () => {
		const error = await getAccountAnswered(404, { error: { status: 404, message: 'Nothing here.' } });
		expect(error.message).toBe('Nothing here.');
		expect(error.description).toBe("AWeber has no such resource: check the IDs chosen in the node.\nHTTP status: 404");
	});

	it("the 2.0 beta's problem+json (title, detail): the detail as the message, the title as the type, with the hint", async () => {
		const error = await getAccountAnswered(404, {
			type: 'about:blank',
			title: 'Not Found',
			status: 404,
			detail: 'The requested broadcast could not be found.',
			instance: '/2.0/accounts/x/broadcasts/y/links',
		});
		expect(error.message).toBe('The requested broadcast could not be found.');
		expect(error.description).toBe(
			"AWeber's link report (beta) does not know this broadcast. The node sends the UUID of the broadcast chosen: check that it is on the chosen list and was sent.\nAWeber error type: Not Found\nHTTP status: 404",
		);
	});

	it('an OAuth-style refusal (error, error_description): the description as the message, the error as the type', async () => {
		const error = await getAccountAnswered(403, { error: 'insufficient_scope', error_description: 'The request requires higher privileges.' });
		expect(error.message).toBe('The request requires higher privileges.');
		expect(error.description).toBe('AWeber error type: insufficient_scope\nHTTP status: 403');
	});

	it('an OAuth-style refusal without error_description: the error itself is the message', async () => {
		const error = await getAccountAnswered(403, { error: 'access_denied' });
		expect(error.message).toBe('access_denied');
		expect(error.description).toBe('AWeber error type: access_denied\nHTTP status: 403');
	});

	it("a page that is no AWeber error (a proxy's HTML): n8n's message for the status, and only the status", async () => {
		const error = await getAccountAnswered(400, '<html><body>Bad request</body></html>');
		expect(error.message).toBe('Bad request - please check your parameters');
		expect(error.description).toBe('HTTP status: 400');
	});

	it("a JSON body that is no AWeber error ({error: true, message}): n8n's message, no AWeber error type", async () => {
		const error = await getAccountAnswered(400, { error: true, message: 'Upstream refused the request' });
		expect(error.description).toBe('HTTP status: 400');
	});

	it.each([
		['a detail without a title', { status: 404, detail: 'The requested broadcast could not be found.' }],
		['a title without a detail', { status: 404, title: 'Not Found' }],
	])("half a problem+json (%s) is not read as AWeber's words", async (_name, body) => {
		const error = await getAccountAnswered(404, body);
		expect(error.message).not.toBe('The requested broadcast could not be found.');
		expect(error.description).toBe('AWeber has no such resource: check the IDs chosen in the node.\nHTTP status: 404');
	});
});
