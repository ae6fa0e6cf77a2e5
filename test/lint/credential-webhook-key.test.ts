// The credential's masked "Webhook Verification Key" field (webhookVerificationSecret, named so that n8n's
// credential rules see a secret) is what the AWeber Webhook Trigger reads: no hidden copy of the key exists, since a hidden
// field is neither masked in the editor nor redacted in n8n's API answers.
import type { INodeProperties } from 'n8n-workflow';

import { AWeberOAuth2Api } from '../../credentials/AWeberOAuth2Api.credentials';
import { webhookVerificationKey } from '../../nodes/AWeberSubscriberTrigger/verificationKey';
import { HarnessCredentialsHelper } from '../harness/credentials';

const credential = new AWeberOAuth2Api();
const helper = new HarnessCredentialsHelper(new Map([[credential.name, credential]]));
const field = (name: string): INodeProperties | undefined => credential.properties.find((property) => property.name === name);

describe('webhook verification key in the AWeber credential', () => {
	it('is entered in a masked field, and no other field holds it', () => {
		expect(field('webhookVerificationSecret')).toMatchObject({
			displayName: 'Webhook Verification Key',
			type: 'string',
			typeOptions: { password: true },
		});
		const resolved = helper.resolve({ clientId: 'app', webhookVerificationSecret: 'key-from-aweber' }, credential.name);
		const holders = Object.entries(resolved).filter(([, value]) => value === 'key-from-aweber').map(([name]) => name);
		expect(holders).toEqual(['webhookVerificationSecret']);
		expect(credential.properties.filter((property) => property.type === 'hidden' && String(property.default).includes('webhookVerification'))).toEqual([]);
	});

	it('reaches the trigger as the credential dialog saves it', () => {
		const resolved = helper.resolve({ clientId: 'app', webhookVerificationSecret: ' key-from-aweber ' }, credential.name);
		expect(webhookVerificationKey(resolved)).toBe('key-from-aweber');
	});

	it('counts as missing when the field is left empty', () => {
		expect(webhookVerificationKey(helper.resolve({ clientId: 'app' }, credential.name))).toBeUndefined();
		expect(webhookVerificationKey(helper.resolve({ clientId: 'app', webhookVerificationSecret: '  ' }, credential.name))).toBeUndefined();
	});
});
