// Types of production-build.mjs for the TypeScript tests that import it.
export declare const ROOT: string;
export declare const BUILD_INPUTS: { directories: string[]; files: string[]; ignored: RegExp };
export declare function buildDirectory(env?: Record<string, string | undefined>, root?: string): string;
export declare function sourceFingerprint(root?: string): string;
export declare function buildStatus(buildDir: string, root?: string): { current: boolean; reason: string; fingerprint: string };
export declare function readStoredFingerprint(buildDir: string): string | null;
export declare function writeStoredFingerprint(buildDir: string, fingerprint: string): void;
export declare function buildProduction(buildDir: string, root?: string): { ok: boolean; output: string; summary: string };
export declare function precompress(clientDir: string): string;
