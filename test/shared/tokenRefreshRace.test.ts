import { trackSend } from '../../nodes/shared/sendWithPolicies';

const refused = Object.assign(new Error('invalid_grant'), { code: 'EAUTH' });

function deferred<T>() {
	let resolve!: (value: T) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
	return { promise, resolve, reject };
}

describe('a token refresh that lost a race (n8n 1.x refreshes once per request)', () => {
	it('is retried once the request that refreshed first has succeeded', async () => {
		const winner = deferred<string>();
		const first = trackSend('credential-a', async () => await winner.promise);
		const second = trackSend('credential-a', async () => await Promise.reject(refused));
		await expect(second.result).rejects.toBe(refused);
		const lost = second.lostRefreshRace({ code: 'EAUTH' });
		// It waits for the request still in flight before it decides.
		winner.resolve('ok');
		await expect(first.result).resolves.toBe('ok');
		await expect(lost).resolves.toBe(true);
	});

	it('is not retried when no other request of the credential succeeded (the grant is really gone)', async () => {
		const other = trackSend('credential-b', async () => await Promise.reject(refused));
		const alone = trackSend('credential-b', async () => await Promise.reject(refused));
		await expect(other.result).rejects.toBe(refused);
		await expect(alone.result).rejects.toBe(refused);
		await expect(alone.lostRefreshRace({ code: 'EAUTH' })).resolves.toBe(false);
	});

	it('ignores successes of other credentials and failures that are not token refusals', async () => {
		await trackSend('credential-c', async () => await Promise.resolve('ok')).result;
		const send = trackSend('credential-d', async () => await Promise.reject(refused));
		await expect(send.result).rejects.toBe(refused);
		await expect(send.lostRefreshRace({ code: 'EAUTH' })).resolves.toBe(false);
		const later = trackSend('credential-c', async () => await Promise.reject(new Error('HTTP 500')));
		await trackSend('credential-c', async () => await Promise.resolve('ok')).result;
		await expect(later.result).rejects.toThrow('HTTP 500');
		await expect(later.lostRefreshRace({})).resolves.toBe(false);
	});
});
