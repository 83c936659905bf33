// Types of scripts/generate-validators.mjs for the test that checks the committed output.
export declare const OUTPUT: string;
export declare function generateValidators(): string;
