// The e2e suite's library: a real n8n (pinned runtime) with our package, AWeber credentials for the sandbox, workflows.
export * from './runtime';
export * from './n8n';
export * from './sandboxAndN8n';
export * from './sandboxN8nAndCredential';
export * from './credentials';
export * from './workflows';
export * from './itemsWorkflow';
export * from './tools';
export * from './scriptedModel';
