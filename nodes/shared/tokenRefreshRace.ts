/**
 * A request whose token refresh lost a race to another request of the same credential.
 *
 * AWeber answers a refresh with a new refresh token and the old one stops working
 * (docs/aweber-behaviour.md#oauth-20). n8n 2.x refreshes once per credential however many requests met the
 * expired token; n8n 1.x refreshes once per request, so when several requests are in flight as the token expires,
 * one refresh wins and the others are refused ("invalid_grant"), although the credential now holds a working token.
 * Such a request is sent once more, after the requests it raced with have settled and one of them succeeded.
 */

interface CredentialSends {
	inFlight: Set<Promise<unknown>>;
	/** Counts the credential's successful requests, so a request can tell whether one succeeded since it started. */
	successes: number;
}

/** One entry per credential this process uses; its set holds only the requests in flight. */
const sendsByCredential = new Map<string, CredentialSends>();

function sendsOf(credentialKey: string): CredentialSends {
	let sends = sendsByCredential.get(credentialKey);
	if (!sends) {
		sends = { inFlight: new Set(), successes: 0 };
		sendsByCredential.set(credentialKey, sends);
	}
	return sends;
}

export interface TrackedSend<T> {
	result: Promise<T>;
	/** After `result` failed: whether the failure may be a lost refresh race that a new attempt would not meet. */
	lostRefreshRace(failure: { code?: string }): Promise<boolean>;
}

/** Sends one request of a credential, noting it among the credential's requests in flight. */
export function trackSend<T>(credentialKey: string, send: () => Promise<T>): TrackedSend<T> {
	const sends = sendsOf(credentialKey);
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
		async lostRefreshRace(failure) {
			// EAUTH: n8n's OAuth2 client was refused at the token endpoint.
			if (failure.code !== 'EAUTH') return false;
			sends.inFlight.delete(settled);
			await Promise.all([...sends.inFlight]);
			return sends.successes > successesBefore;
		},
	};
}
