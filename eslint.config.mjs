import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import jsoncParser from 'jsonc-eslint-parser';
import tseslint from 'typescript-eslint';

const typescript = { parser: tseslint.parser, parserOptions: { sourceType: 'module' } };

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'bench/**', 'scripts/**', 'docs/**', '.n8n-runtime/**', '*.js', '*.mjs'] },
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: typescript,
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// This rule wants an n8n docs slug; community credentials link to the provider's docs, which
			// @n8n/community-nodes/credential-documentation-url requires to be a URL.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: typescript,
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// These predate n8n 2.x's typed connection constants; @n8n/community-nodes/node-connection-type-literal
			// asks for NodeConnectionTypes.Main instead of the 'main' literal they want.
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		...n8nCommunityNodesPlugin.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		languageOptions: { parser: tseslint.parser },
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
	},
];
