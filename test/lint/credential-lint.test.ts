// The credential passes n8n's credential rules with inline eslint-disable comments ignored (as n8n's scanner lints),
// and the rule that keeps the webhook key field masked honestly can fail. Temporary copies, ESLint's Node API; both
// copies are linted in one ESLint process (its start is most of the time), each in its own folder.
import { lintCopiesEach, readPackageFile, type Problem } from './eslint';

const CREDENTIAL = 'credentials/AWeberOAuth2Api.credentials.ts';
const source = readPackageFile(CREDENTIAL);
const renamed = source.replace("name: 'webhookVerificationSecret',", "name: 'webhookVerificationKey',");

describe('lint of the credential', () => {
	let asItIs: Problem[];
	let withRenamedField: Problem[];
	beforeAll(() => {
		const [original, changed] = lintCopiesEach([{ [CREDENTIAL]: source }, { [CREDENTIAL]: renamed }]);
		asItIs = original[CREDENTIAL] ?? [];
		withRenamedField = changed[CREDENTIAL] ?? [];
	});

	it('passes as it is', () => {
		expect(asItIs).toEqual([]);
	});

	it('warns when the masked webhook key field has a name that does not say it is a secret', () => {
		expect(renamed).not.toBe(source);
		expect(withRenamedField).toEqual([
			expect.objectContaining({ ruleId: '@n8n/community-nodes/credential-unnecessary-password', severity: 1 }),
		]);
	});
});
