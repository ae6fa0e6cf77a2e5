// Return All reads a big collection's pages a few at a time: when one page is refused for good, the node fails with
// that page's error and asks for no further pages (nodes/shared/collections.ts).
import { useTestbed } from '../harness/aweber';

const byId = (value: number) => ({ __rl: true, mode: 'id', value: String(value) });

describe('Return All when a page is refused', () => {
	const bed = useTestbed({ seedSize: 450 });
	const getAllOfBulkList = async () =>
		await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: { operation: 'getAll', accountId: byId(bed.sandbox.seed.accountId), listId: byId(bed.sandbox.seed.lists.bulk), returnAll: true },
		});

	it('fails with the refused page\'s error and stops reading the pages after it', async () => {
		bed.sandbox.pages.cap(20);
		bed.sandbox.faults.next(1, 'answer', {
			status: 400,
			body: { error: { status: 400, type: 'WebAPIError', message: 'The page could not be read.' } },
			query: { 'ws.start': '60' },
		});
		const result = await getAllOfBulkList();
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe('The page could not be read.');
		// Readers still under way when the node failed finish their page; none asks for another afterwards.
		await new Promise((resolve) => setTimeout(resolve, 500));
		const starts = bed.sandbox
			.requests()
			.filter((entry) => entry.path.startsWith('/1.0/'))
			.map((entry) => Number(entry.query['ws.start'] ?? 0));
		// 23 pages of 20: the pages before the refused one, and the few already asked for beside it (read ahead), not the rest.
		expect(starts.length).toBeLessThanOrEqual(7);
		expect(Math.max(...starts)).toBeLessThanOrEqual(120);
	});

	it('refuses a further page that is an HTML page, saying what came instead of a page', async () => {
		bed.sandbox.pages.cap(20);
		bed.sandbox.faults.next(1, 'answer', { body: '<html>maintenance</html>', query: { 'ws.start': '20' } });
		const result = await getAllOfBulkList();
		expect(result.status).toBe('error');
		expect(result.error?.message).toBe("AWeber's answer was unexpected: it is not a page of an AWeber collection");
		expect(result.error?.description).toMatch(
			/^While reading the next page of a collection, AWeber answered an HTML page \(<html>maintenance<\/html>\) instead of a page/,
		);
	});
});
