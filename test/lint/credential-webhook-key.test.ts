// The credential's masked "Webhook Verification Key" field (webhookVerificationSecret, named so that n8n's
// credential rules see a secret) reaches the AWeber Trigger through the hidden webhookVerificationKey field.
import type { INodeProperties } from 'n8n-workflow';

import { AWeberOAuth2Api } from '../../credentials/AWeberOAuth2Api.credentials';
import { webhookVerificationKey } from '../../nodes/AWeberTrigger/verificationKey';
import { HarnessCredentialsHelper } from '../harness/credentials';

const credential = new AWeberOAuth2Api();
const helper = new HarnessCredentialsHelper(new Map([[credential.name, credential]]));
const field = (name: string): INodeProperties | undefined => credential.properties.find((property) => property.name === name);

describe('webhook verification key in the AWeber credential', () => {
	it('is entered in a masked field, and the field the trigger reads is not shown', () => {
		expect(field('webhookVerificationSecret')).toMatchObject({
			displayName: 'Webhook Verification Key',
			type: 'string',
			typeOptions: { password: true },
		});
		expect(field('webhookVerificationKey')?.type).toBe('hidden');
	});

	it('reaches the trigger as the credential dialog saves it', () => {
		const resolved = helper.resolve({ clientId: 'app', webhookVerificationSecret: ' key-from-aweber ' }, credential.name);
		expect(resolved.webhookVerificationKey).toBe(' key-from-aweber ');
		expect(webhookVerificationKey(resolved)).toBe('key-from-aweber');
	});

	it('counts as missing when the field is left empty', () => {
		expect(webhookVerificationKey(helper.resolve({ clientId: 'app' }, credential.name))).toBeUndefined();
		expect(webhookVerificationKey(helper.resolve({ clientId: 'app', webhookVerificationSecret: '  ' }, credential.name))).toBeUndefined();
	});
});
