import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	INodeParameters,
	INodeType,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, Workflow } from 'n8n-workflow';

import { HarnessNodeTypes } from './nodeTypes';

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

export interface TokenUpdate {
	credentialId: string;
	oauthTokenData: Record<string, unknown>;
}

/** A node type that only exists so credential expressions ($self) can be evaluated, as n8n does. */
const expressionHostNode: INodeType = {
	description: {
		displayName: 'Expression Host',
		name: 'expressionHost',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: {},
		inputs: [],
		outputs: [],
		properties: [],
	},
};

/**
 * Stands in for n8n's database-backed credentials helper: applies the credential type's defaults,
 * resolves its expressions, and stores refreshed token data (recording each update so tests can
 * assert that a rotated refresh token was persisted).
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly store = new Map<string, StoredCredential>();

	readonly tokenUpdates: TokenUpdate[] = [];

	constructor(private readonly credentialTypes: Map<string, ICredentialType>) {
		super();
	}

	set(credential: StoredCredential): void {
		this.store.set(credential.id, structuredClone(credential));
	}

	get(id: string): StoredCredential {
		const credential = this.store.get(id);
		if (!credential) throw new Error(`No credential ${id}`);
		return credential;
	}

	getParentTypes(name: string): string[] {
		const type = this.credentialTypes.get(name);
		return type?.extends ? [...type.extends] : [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		_helpers: IHttpRequestHelper,
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		_node: INode,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		const stored = this.get(nodeCredentials.id ?? '');
		return {
			id: stored.id,
			name: stored.name,
			type,
			data: undefined,
			getData: () => structuredClone(stored.data),
			getDataToSave: () => ({ id: stored.id, name: stored.name, type, data: '' }),
			setData: (data: ICredentialDataDecryptedObject) => {
				stored.data = structuredClone(data);
			},
			updateData: () => undefined,
		} as unknown as ICredentials;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		_mode?: unknown,
		_executeData?: unknown,
		raw?: boolean,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = this.get(nodeCredentials.id ?? '');
		if (raw) return structuredClone(stored.data);
		return this.resolve(stored.data, type);
	}

	/** Defaults of the credential's properties, then its `={{$self...}}` expressions, like n8n's helper. */
	resolve(data: ICredentialDataDecryptedObject, type: string): ICredentialDataDecryptedObject {
		const properties = this.getCredentialsProperties(type);
		const withDefaults = NodeHelpers.getNodeParameters(properties, data as INodeParameters, true, false, null, null) as ICredentialDataDecryptedObject;
		if (data.oauthTokenData !== undefined) withDefaults.oauthTokenData = structuredClone(data.oauthTokenData);
		const host: INode = {
			id: 'expression-host',
			name: 'Expression Host',
			type: 'expressionHost',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const workflow = new Workflow({
			nodes: [host],
			connections: {},
			active: false,
			nodeTypes: new HarnessNodeTypes(new Map([['expressionHost', expressionHostNode]])),
		});
		return workflow.expression.getComplexParameterValue(
			host,
			withDefaults as INodeParameters,
			'internal',
			{},
			undefined,
			undefined,
			withDefaults as INodeParameters,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(nodeCredentials: INodeCredentialsDetails, _type: string, data: ICredentialDataDecryptedObject): Promise<void> {
		this.get(nodeCredentials.id ?? '').data = structuredClone(data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.get(nodeCredentials.id ?? '');
		stored.data.oauthTokenData = structuredClone(data.oauthTokenData);
		this.tokenUpdates.push({
			credentialId: stored.id,
			oauthTokenData: structuredClone(data.oauthTokenData) as Record<string, unknown>,
		});
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.get(type);
		if (!credentialType) throw new Error(`Unknown credential type ${type}`);
		return credentialType.properties;
	}
}
