import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, callLines, listPath, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed({ resetEachTest: false });

describe('AWeber Landing Page node', () => {
	it('gets the landing pages of a list, one item each', async () => {
		const result = await run(bed, 'aWeberLandingPage', { ...newsletterScope(bed), operation: 'getAll', returnAll: true });
		expect(result.items).toEqual([
			expect.objectContaining({ id: bed.sandbox.seed.landingPages.newsletter, name: 'Spring launch', status: 'published' }),
			expect.objectContaining({ name: 'Webinar sign-up (draft)', status: 'unpublished', published_url: null }),
		]);
		expect(apiCalls(bed)).toEqual([
			expect.objectContaining({ method: 'GET', path: `${listPath(bed)}/landing_pages`, query: { 'ws.size': '100' } }),
		]);
	});

	it('gets a landing page by its (non-numeric) ID', async () => {
		const id = bed.sandbox.seed.landingPages.newsletter;
		const result = await run(bed, 'aWeberLandingPage', { ...newsletterScope(bed), operation: 'get', landingPageId: byId(id) });
		expect(result.items).toEqual([
			expect.objectContaining({ id, published_url: expect.stringMatching(/^https:\/\//), content_html: expect.any(String) }),
		]);
		expect(callLines(bed)).toEqual([`GET ${listPath(bed)}/landing_pages/${id}`]);
	});

	it('tells the user to add the landing-page.read scope when the credential lacks it', async () => {
		const withoutScope = bed.connect({ scopes: ['account.read', 'list.read'] });
		const result = await run(bed, 'aWeberLandingPage', { ...newsletterScope(bed), operation: 'getAll', returnAll: true }, { credentialId: withoutScope });
		expect(result.error?.httpCode).toBe('403');
		expect(result.error?.description).toMatch(/"landing-page\.read" scope/);
	});
});
