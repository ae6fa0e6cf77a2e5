// Which bodies a broadcast write sends: Create leaves out an empty body (AWeber makes the text version from the HTML
// one), Update sends an empty body as given, to empty it in AWeber.
import type { IDataObject } from 'n8n-workflow';

import { useTestbed } from '../harness/aweber';
import { apiCalls, byId, newsletterScope, run } from './email-nodes.helpers';

const bed = useTestbed();
const broadcast = async (parameters: IDataObject) => await run(bed, 'aWeberBroadcast', { ...newsletterScope(bed), ...parameters });

describe('Broadcast bodies', () => {
	it.each([
		['an empty text body', { bodyHtml: '<p>Hello</p>', bodyText: '' }, 'body_html', 'body_text'],
		['an empty HTML body', { bodyHtml: '', bodyText: 'Hello' }, 'body_text', 'body_html'],
	])('Create leaves out %s and sends the other', async (_case, bodies, sent, left) => {
		const result = await broadcast({ operation: 'create', subject: 'Bodies', ...bodies });
		expect(result.status).toBe('success');
		const [post] = apiCalls(bed);
		expect(post).toMatchObject({ method: 'POST' });
		expect(post.body).toHaveProperty(sent);
		expect(post.body).not.toHaveProperty(left);
	});

	it.each([['bodyText', 'body_text'], ['bodyHtml', 'body_html']])('Update sends an empty %s as given, so AWeber empties it', async (parameter, field) => {
		const result = await broadcast({ operation: 'update', broadcastId: byId(bed.sandbox.seed.broadcasts.draft), updateFields: { [parameter]: '' } });
		expect(result.status).toBe('success');
		const put = apiCalls(bed).find((call) => call.method === 'PUT');
		expect(put?.body).toEqual({ [field]: '' });
	});
});
