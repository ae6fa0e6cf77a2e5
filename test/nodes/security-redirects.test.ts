// Redirects of requests that carry the credential (nodes/shared/redirects.ts, docs/architecture.md#redirects), played
// by the sandbox's fault control plane: which ones are followed, as what request, and what a refusal says.
import { n8nCoreMajor } from '../harness/n8nVersion';
import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, listPath, newsletterScope, run } from './email-nodes.helpers';

/** n8n-core 2.x keeps a redirect's Location in its error; 1.x does not, and there every redirect is refused unfollowed. */
const keepsRedirectTarget = n8nCoreMajor >= 2;
const onN8n2 = keepsRedirectTarget ? it : it.skip;

const bed = useTestbed();

const ADVICE = "AWeber's API does not redirect its requests: check the credential's API Base URL and any proxy between n8n and AWeber.";
const accountPath = () => `/1.0/accounts/${bed.sandbox.seed.accountId}`;
const subscribersPath = () => `${listPath(bed)}/subscribers`;

async function addSubscriber(email: string) {
	return await run(bed, 'aWeberSubscriber', { operation: 'create', ...newsletterScope(bed), email });
}

async function getAccount() {
	return await run(bed, 'aWeberAccount', { operation: 'get', accountId: byId(bed.sandbox.seed.accountId) });
}

/** `METHOD status` and whether a body came, for each request AWeber received. */
const received = () => apiCalls(bed).map((call) => `${call.method} ${call.status}${call.body === undefined ? '' : ' with body'}`);

describe('A redirect from the API to the API', () => {
	onN8n2('307 repeats an add as it was: the same POST with its body, then the new subscriber is read', async () => {
		bed.sandbox.faults.next(1, 'redirect', { status: 307, location: `${bed.sandbox.apiBaseUrl}${subscribersPath()}?moved=1`, method: 'POST' });
		const result = await addSubscriber('redirected-307@example.com');
		expect(result.status).toBe('success');
		expect(result.items).toEqual([expect.objectContaining({ email: 'redirected-307@example.com' })]);
		expect(received()).toEqual(['POST 307', 'POST 201 with body', 'GET 200']);
		expect(apiCalls(bed)[1]).toMatchObject({ query: { moved: '1' }, body: expect.objectContaining({ email: 'redirected-307@example.com' }) });
	});

	it.each([303, 302, 301])('%i after an add turns it into a GET without the body, as browsers do', async (status) => {
		if (!keepsRedirectTarget) return;
		bed.sandbox.faults.next(1, 'redirect', { status, location: `${bed.sandbox.apiBaseUrl}${accountPath()}`, method: 'POST' });
		await addSubscriber(`redirected-${status}@example.com`);
		expect(received().slice(0, 2)).toEqual([`POST ${status}`, 'GET 200']);
		expect(apiCalls(bed)[1]).toMatchObject({ path: accountPath(), contentType: null });
	});

	it.each([303, 302])('%i after a form-encoded write turns it into a GET without the form or its Content-Type', async (status) => {
		if (!keepsRedirectTarget) return;
		bed.sandbox.faults.next(1, 'redirect', { status, location: `${bed.sandbox.apiBaseUrl}${accountPath()}`, method: 'POST' });
		await run(bed, 'aWeberCustomField', { operation: 'create', ...newsletterScope(bed), name: `redirected ${status}` });
		expect(received().slice(0, 2)).toEqual([`POST ${status}`, 'GET 200']);
		expect(apiCalls(bed)[0]).toMatchObject({ contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/) });
		// The other headers stay: the GET still names the package as the POST did.
		expect(apiCalls(bed)[1]).toMatchObject({ path: accountPath(), contentType: null, userAgent: apiCalls(bed)[0].userAgent });
		expect(apiCalls(bed)[0].userAgent).toMatch(/^n8n-nodes-aweber\//);
	});

	it('a loop ends after 3 hops, saying the request went no further', async () => {
		bed.sandbox.faults.next(10, 'redirect', { status: 307, location: `${bed.sandbox.apiBaseUrl}${accountPath()}`, pathPrefix: accountPath() });
		const result = await getAccount();
		expect(result.status).toBe('error');
		if (!keepsRedirectTarget) return;
		expect(result.error?.message).toBe('Refused to follow more than 3 redirects from AWeber');
		expect(result.error?.description).toBe(
			`AWeber's answer to GET ${accountPath()} was a redirect (HTTP 307), again. The request was not sent any further. ${ADVICE}`,
		);
		expect(received()).toEqual(['GET 307', 'GET 307', 'GET 307', 'GET 307']);
	});

	it('a loop of 303s after an add names the GET the add became, and ends after 3 hops', async () => {
		bed.sandbox.faults.next(10, 'redirect', { status: 303, location: `${bed.sandbox.apiBaseUrl}${accountPath()}`, pathPrefix: accountPath() });
		const result = await addSubscriber('looping-303@example.com');
		expect(result.status).toBe('error');
		if (!keepsRedirectTarget) return;
		expect(result.error?.description).toBe(
			`AWeber's answer to GET ${accountPath()} was a redirect (HTTP 303), again. The request was not sent any further. ${ADVICE}`,
		);
		expect(received()).toEqual(['POST 303', 'GET 303', 'GET 303', 'GET 303']);
	});
});

describe('A redirect refused', () => {
	onN8n2('to another origin: the description names the redirect, the origin and the credential\'s API', async () => {
		bed.sandbox.faults.next(1, 'redirect', { status: 308, location: 'http://127.0.0.1:9/collect', pathPrefix: accountPath() });
		const result = await getAccount();
		expect(result.error?.message).toBe('Refused to follow a redirect (HTTP 308) from AWeber');
		expect(result.error?.description).toBe(
			`AWeber's answer to GET ${accountPath()} was a redirect (HTTP 308) to http://127.0.0.1:9, which is not this credential's AWeber API ` +
				`(${bed.sandbox.apiBaseUrl}). The redirect was not followed and the credential was not sent there. ${ADVICE}`,
		);
		expect(received()).toEqual(['GET 308']);
	});

	onN8n2('to a Location that is no readable link, naming its first 80 characters', async () => {
		const location = `http://[not-a-host]/${'x'.repeat(100)}`;
		bed.sandbox.faults.next(1, 'redirect', { status: 302, location, pathPrefix: accountPath() });
		const result = await getAccount();
		expect(result.error?.message).toBe('Refused to follow a redirect (HTTP 302) from AWeber');
		expect(result.error?.description).toContain(`was a redirect (HTTP 302) to "${location.slice(0, 80)}", which is not this credential's AWeber API`);
		expect(received()).toEqual(['GET 302']);
	});

	it('without a target (an empty Location): not followed, and the credential was sent nowhere else', async () => {
		bed.sandbox.faults.next(1, 'redirect', { status: 302, location: '', pathPrefix: accountPath() });
		const result = await getAccount();
		expect(result.error?.message).toBe('Refused to follow a redirect (HTTP 302) from AWeber');
		expect(result.error?.description).toBe(
			`AWeber's answer to GET ${accountPath()} was a redirect (HTTP 302); n8n did not pass on its target, so it was not followed and the credential was sent nowhere else. ${ADVICE}`,
		);
		expect(received()).toEqual(['GET 302']);
	});

	it('of a further page of Return All: refused the same way, naming the page read', async () => {
		const bulkSubscribers = listPath(bed, bed.sandbox.seed.lists.bulk) + '/subscribers';
		bed.sandbox.faults.next(1, 'redirect', { status: 302, location: '', pathPrefix: bulkSubscribers, query: { 'ws.start': '100' } });
		const result = await run(bed, 'aWeberSubscriber', { operation: 'getAll', ...newsletterScope(bed, bed.sandbox.seed.lists.bulk), returnAll: true });
		expect(result.error?.message).toBe('Refused to follow a redirect (HTTP 302) from AWeber');
		expect(result.error?.description).toMatch(new RegExp(`^AWeber's answer to GET ${bulkSubscribers} was a redirect \\(HTTP 302\\); n8n did not pass on its target`));
		expect(received()).toContain('GET 302');
	});
});
