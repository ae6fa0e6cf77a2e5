// Return All reads the pages of a big offset collection a few at a time; the output keeps the list's order.
import { useTestbed } from '../harness/aweber';

const byId = (value: number) => ({ __rl: true, mode: 'id', value: String(value) });

describe('Return All with pages read ahead', () => {
	const bed = useTestbed({ seedSize: 450, resetEachTest: false });

	const apiCalls = () => bed.sandbox.requests().filter((entry) => entry.path.startsWith('/1.0/'));
	const getMany = async (extra: Record<string, unknown>) =>
		await bed.harness.runNode({
			type: 'aWeberSubscriber',
			credentialId: bed.credentialId,
			parameters: { operation: 'getAll', accountId: byId(bed.sandbox.seed.accountId), listId: byId(bed.sandbox.seed.lists.bulk), ...extra },
		});

	it('reads every page once and outputs the subscribers in list order, also when a page had to be retried', async () => {
		bed.sandbox.faults.next(2, '503', { pathPrefix: '/1.0/' });
		const result = await getMany({ returnAll: true });
		expect(result.status).toBe('success');
		expect(result.items.map((subscriber) => subscriber.email)).toEqual(
			Array.from({ length: 450 }, (_, index) => `bulk.${String(index + 1).padStart(5, '0')}@example.com`),
		);
		const pages = apiCalls().filter((entry) => entry.status === 200);
		expect(pages.map((entry) => Number(entry.query['ws.start'] ?? 0)).sort((a, b) => a - b)).toEqual([0, 100, 200, 300, 400]);
	});

	it('reads a further page again when AWeber answered it with a passing error, as any read', async () => {
		bed.sandbox.faults.next(1, '503', { pathPrefix: '/1.0/', query: { 'ws.start': '200' } });
		const result = await getMany({ returnAll: true });
		expect(result.status).toBe('success');
		expect(result.items).toHaveLength(450);
		const thirdPage = apiCalls().filter((entry) => entry.query['ws.start'] === '200');
		expect(thirdPage.map((entry) => entry.status)).toEqual([503, 200]);
	});

	it('asks only for the entries still wanted under a Limit', async () => {
		const result = await getMany({ returnAll: false, limit: 230 });
		expect(result.items).toHaveLength(230);
		const sizes = apiCalls()
			.map((entry) => [Number(entry.query['ws.start'] ?? 0), entry.query['ws.size']] as const)
			.sort((a, b) => a[0] - b[0]);
		expect(sizes).toEqual([
			[0, '100'],
			[100, '100'],
			[200, '30'],
		]);
	});
});
