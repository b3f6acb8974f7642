export function unsupportedNode(version: string): string | undefined;
