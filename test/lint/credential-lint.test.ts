// The credential passes n8n's credential rules with inline eslint-disable comments ignored (as n8n's scanner lints),
// and the rule that keeps the webhook key field masked honestly can fail. Temporary copies, ESLint's Node API.
import { lintCopy, readPackageFile } from './eslint';

const CREDENTIAL = 'credentials/AWeberOAuth2Api.credentials.ts';
const source = readPackageFile(CREDENTIAL);

describe('lint of the credential', () => {
	it('passes as it is', () => {
		expect(lintCopy(CREDENTIAL, source)).toEqual([]);
	});

	it('warns when the masked webhook key field has a name that does not say it is a secret', () => {
		const renamed = source.replace("name: 'webhookVerificationSecret',", "name: 'webhookVerificationKey',");
		expect(renamed).not.toBe(source);
		expect(lintCopy(CREDENTIAL, renamed)).toEqual([
			expect.objectContaining({ ruleId: '@n8n/community-nodes/credential-unnecessary-password', severity: 1 }),
		]);
	});
});
