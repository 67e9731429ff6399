// Runs the Khronos glTF validator (the gltf-validator package, installed by build.sh into
// BUILD/tools/node_modules) on each file named on the command line.
// Usage: node gltf_validate.js MODULE_DIR FILE...
// Prints one line per file ("FILE: N errors, M warnings" and the errors' codes, pointers and
// messages) and exits 1 when any file has an error or could not be read, else 0.
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
  const args = process.argv.slice(2);
  if (args.length < 2) {
    console.error('usage: node gltf_validate.js MODULE_DIR FILE...');
    process.exit(2);
  }
  const validator = require(path.resolve(args[0], 'gltf-validator'));
  let failed = false;
  for (const file of args.slice(1)) {
    try {
      const bytes = new Uint8Array(fs.readFileSync(file));
      const report = await validator.validateBytes(bytes, {
        uri: path.basename(file),
        maxIssues: 0,
        externalResourceFunction: (uri) => new Promise((resolve, reject) => {
          fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)),
                      (err, data) => err ? reject(err.toString()) : resolve(new Uint8Array(data)));
        }),
      });
      const errors = report.issues.numErrors;
      console.log(`${file}: ${errors} errors, ${report.issues.numWarnings} warnings`);
      for (const m of report.issues.messages) {
        if (m.severity === 0) console.log(`  ${m.code} ${m.pointer || ''}: ${m.message}`);
      }
      if (errors > 0) failed = true;
    } catch (e) {
      console.log(`${file}: could not validate: ${e}`);
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
}
main();
