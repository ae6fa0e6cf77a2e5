/*
 * A request whose token refresh lost a race to another request of the same credential: n8n 1.x refreshes once per
 * request, AWeber's refresh makes the old refresh token stop working (docs/aweber-behaviour.md#oauth-20), so the
 * losers are refused ("invalid_grant") although the credential now holds a working token. Such a request is sent once
 * more, after the requests it raced with have settled and one of them succeeded.
 */

/** Per credential: the requests in flight, and a count of successes (did one succeed since a request started?). */
const sendsByCredential = new Map<string, { inFlight: Set<Promise<unknown>>; successes: number }>();

/** Sends one request of a credential, noting it among the credential's requests in flight. */
export function trackSend<T>(credentialKey: string, send: () => Promise<T>) {
	const sends = sendsByCredential.get(credentialKey) ?? { inFlight: new Set(), successes: 0 };
	sendsByCredential.set(credentialKey, sends);
	const successesBefore = sends.successes;
	const result = send();
	const settled = result.then(
		() => {
			sends.successes++;
		},
		() => undefined,
	);
	sends.inFlight.add(settled);
	void settled.then(() => sends.inFlight.delete(settled));
	return {
		result,
		/** After `result` failed: whether it may be a lost refresh race that a new attempt would not meet. */
		async lostRefreshRace(failure: { code?: string }): Promise<boolean> {
			// EAUTH: n8n's OAuth2 client was refused at the token endpoint.
			if (failure.code !== 'EAUTH') return false;
			sends.inFlight.delete(settled);
			await Promise.all([...sends.inFlight]);
			return sends.successes > successesBefore;
		},
	};
}
