import { randomBytes } from 'node:crypto';

import type { SandboxClock } from './clock';
import type { TokenRecord } from './types';

/** Who a token or code acts for: the customer account, the scopes it approved, and the app it was granted to. */
export interface Grant {
	accountId: number;
	scopes: string[];
	clientId: string;
}

export type TokenVerification =
	| ({ ok: true } & Grant)
	| { ok: false; reason: 'expired' | 'unknown' | 'revoked' };

export type TokenRefresh =
	| { ok: true; record: TokenRecord }
	| { ok: false; reason: 'unknown' | 'revoked' | 'rotated' | 'client_mismatch' };

export type TokenRevocation = 'revoked' | 'unknown' | 'client_mismatch';

/** What the authorization request fixed, checked again when the code is exchanged. */
export interface CodeGrant extends Grant {
	redirectUri: string;
	/** PKCE challenge exactly as sent to the authorize endpoint (public apps only). */
	codeChallenge?: string;
}

export type CodeRedemption =
	| { ok: true; grant: CodeGrant }
	| { ok: false; reason: 'unknown' | 'used' | 'stale' | 'client_mismatch' };

export interface TokenStoreOptions {
	/** Access token lifetime in sandbox seconds; also the token record's expires_in. */
	lifetimeSeconds: number;
	/** When true a refresh token works once: the refresh answers a new one and the old one stops working. */
	rotateRefreshTokens: boolean;
	/** How long an authorization code may wait before its exchange, in sandbox seconds. */
	codeLifetimeSeconds?: number;
}

const DEFAULT_CODE_LIFETIME_SECONDS = 600;

interface AccessTokenState extends Grant {
	expiresAt: number;
	revoked: boolean;
}

interface RefreshTokenState extends Grant {
	state: 'active' | 'rotated' | 'revoked';
	/** Access tokens issued under this refresh token, revoked with it (RFC 7009 2.1). */
	accessTokens: string[];
}

interface CodeState extends CodeGrant {
	expiresAt: number;
	used: boolean;
}

function opaqueSecret(): string {
	return randomBytes(24).toString('base64url');
}

/**
 * Access tokens, refresh tokens and authorization codes of the sandbox's OAuth server.
 * Every lifetime is in sandbox time, so a fast clock expires tokens in real seconds.
 */
export class TokenStore {
	private readonly accessTokens = new Map<string, AccessTokenState>();
	private readonly refreshTokens = new Map<string, RefreshTokenState>();
	private readonly codes = new Map<string, CodeState>();

	constructor(
		private readonly clock: SandboxClock,
		private readonly options: TokenStoreOptions,
	) {}

	issue(grant: Grant): TokenRecord {
		const accessToken = opaqueSecret();
		const refreshToken = opaqueSecret();
		const scopes = [...grant.scopes];
		this.accessTokens.set(accessToken, {
			accountId: grant.accountId,
			scopes,
			clientId: grant.clientId,
			expiresAt: this.clock.now() + this.options.lifetimeSeconds * 1000,
			revoked: false,
		});
		this.refreshTokens.set(refreshToken, {
			accountId: grant.accountId,
			scopes,
			clientId: grant.clientId,
			state: 'active',
			accessTokens: [accessToken],
		});
		return {
			access_token: accessToken,
			refresh_token: refreshToken,
			token_type: 'bearer',
			expires_in: this.options.lifetimeSeconds,
			scope: scopes.join(' '),
		};
	}

	verify(accessToken: string): TokenVerification {
		const token = this.accessTokens.get(accessToken);
		if (token === undefined) return { ok: false, reason: 'unknown' };
		if (token.revoked) return { ok: false, reason: 'revoked' };
		if (this.clock.now() >= token.expiresAt) return { ok: false, reason: 'expired' };
		return { ok: true, accountId: token.accountId, scopes: [...token.scopes], clientId: token.clientId };
	}

	/** Seed step 4: a new access token and a new refresh token, for the client and scopes of the original grant. */
	refresh(refreshToken: string, clientId: string): TokenRefresh {
		const token = this.refreshTokens.get(refreshToken);
		if (token === undefined) return { ok: false, reason: 'unknown' };
		if (token.state !== 'active') return { ok: false, reason: token.state };
		if (token.clientId !== clientId) return { ok: false, reason: 'client_mismatch' };
		// Without rotation the old refresh token simply stays usable beside the new one.
		if (this.options.rotateRefreshTokens) token.state = 'rotated';
		const record = this.issue(token);
		return { ok: true, record };
	}

	/** RFC 7009: revoking a refresh token also revokes the access tokens issued under it. */
	revoke(token: string, clientId?: string): TokenRevocation {
		const access = this.accessTokens.get(token);
		if (access !== undefined) {
			if (clientId !== undefined && access.clientId !== clientId) return 'client_mismatch';
			access.revoked = true;
			return 'revoked';
		}
		const refresh = this.refreshTokens.get(token);
		if (refresh !== undefined) {
			if (clientId !== undefined && refresh.clientId !== clientId) return 'client_mismatch';
			refresh.state = 'revoked';
			for (const accessToken of refresh.accessTokens) {
				const issued = this.accessTokens.get(accessToken);
				if (issued !== undefined) issued.revoked = true;
			}
			return 'revoked';
		}
		return 'unknown';
	}

	/** Fault injection: every access token issued so far is expired now; refresh tokens keep working. */
	expireAll(): void {
		const now = this.clock.now();
		for (const token of this.accessTokens.values()) token.expiresAt = Math.min(token.expiresAt, now);
	}

	issueCode(grant: CodeGrant): string {
		const code = opaqueSecret();
		const lifetimeSeconds = this.options.codeLifetimeSeconds ?? DEFAULT_CODE_LIFETIME_SECONDS;
		this.codes.set(code, {
			...grant,
			scopes: [...grant.scopes],
			expiresAt: this.clock.now() + lifetimeSeconds * 1000,
			used: false,
		});
		return code;
	}

	/**
	 * Looks a code up for the token endpoint without using it up, so a request that fails a later check
	 * (redirect_uri, PKCE) can be corrected and retried; `consumeCode` marks it used once tokens are issued.
	 */
	redeemCode(code: string, clientId: string): CodeRedemption {
		const stored = this.codes.get(code);
		if (stored === undefined) return { ok: false, reason: 'unknown' };
		if (stored.used) return { ok: false, reason: 'used' };
		if (this.clock.now() >= stored.expiresAt) return { ok: false, reason: 'stale' };
		if (stored.clientId !== clientId) return { ok: false, reason: 'client_mismatch' };
		const { expiresAt: _expiresAt, used: _used, ...grant } = stored;
		return { ok: true, grant: { ...grant, scopes: [...grant.scopes] } };
	}

	consumeCode(code: string): void {
		const stored = this.codes.get(code);
		if (stored !== undefined) stored.used = true;
	}

	reset(): void {
		this.accessTokens.clear();
		this.refreshTokens.clear();
		this.codes.clear();
	}
}
