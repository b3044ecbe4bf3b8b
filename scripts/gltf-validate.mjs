#!/usr/bin/env node
// Runs the Khronos glTF-Validator (npm package gltf-validator, installed by
// `scripts/setup --test` into build/tools) on one file: prints its JSON report, exits 1 when it
// reports errors, 2 when the validator cannot run.
// Usage: scripts/gltf-validate.mjs FILE [--validator-dir DIR]
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const dirFlag = args.indexOf("--validator-dir");
const toolsDir = dirFlag >= 0 ? args.splice(dirFlag, 2)[1]
    : path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "build", "tools");
if (args.length !== 1) {
    console.error("usage: gltf-validate.mjs FILE [--validator-dir DIR]");
    process.exit(2);
}
const file = args[0];

let validator;
try {
    validator = createRequire(path.join(toolsDir, "package.json"))("gltf-validator");
} catch (e) {
    console.error(`gltf-validate: gltf-validator not found under ${toolsDir} (run scripts/setup --test): ${e.message}`);
    process.exit(2);
}

try {
    const bytes = new Uint8Array(await readFile(file));
    const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0, // report every issue, not the first hundred
        externalResourceFunction: (uri) => readFile(path.resolve(path.dirname(file), decodeURIComponent(uri))),
    });
    console.log(JSON.stringify(report, null, 2));
    process.exit(report.issues.numErrors > 0 ? 1 : 0);
} catch (e) {
    console.error(`gltf-validate: ${file}: ${e}`);
    process.exit(2);
}
