#!/usr/bin/env node
// The local notes MCP server over stdio (README: "Local notes MCP server"). Configure it with
// NOTES_BASE_URL and NOTES_ACCESS_TOKEN in the environment.
import { register } from 'tsx/esm/api';

register();
await import('../src/processes/mcp-notes.ts');
