// The split lives in common/ since the webview's form drafts need it too (webview/src/playground.ts).
export { SECRET_PLACEHOLDER, joinSecretArgs, secretName, splitSecretArgs, type SplitArgs } from '../../../common/secret-args';
