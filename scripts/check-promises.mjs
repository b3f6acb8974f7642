// Finds promises that are dropped or tested as if they were values: a statement that calls an async function without
// awaiting it (or `void`-ing it on purpose), and an `if`/`while`/`!`/`&&`/`||`/`?:` on a promise. tsc accepts both;
// on the ledger, whose calls are all async, either one is a write that may not happen or a check that always passes.
// Usage: node scripts/check-promises.mjs [tsconfig.json]
import ts from 'typescript';

const configPath = process.argv[2] ?? 'tsconfig.json';
const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();
const problems = [];

const isPromise = (node) => {
  const type = checker.getTypeAtLocation(node);
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((t) => {
    const then = t.getProperty('then');
    return then !== undefined && (t.symbol?.name === 'Promise' || t.symbol?.name === 'PromiseLike');
  });
};

const report = (node, what) => {
  const sf = node.getSourceFile();
  const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart());
  problems.push(`${sf.fileName}:${line + 1}:${character + 1}: ${what}: ${node.getText().split('\n')[0].slice(0, 100)}`);
};

function visit(node) {
  if (ts.isExpressionStatement(node)) {
    const e = node.expression;
    const call = ts.isCallExpression(e) || (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) ? e : null;
    if (call && ts.isCallExpression(call) && isPromise(call)) report(call, 'promise not awaited');
  }
  const tested =
    ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node) ? node.expression
    : ts.isConditionalExpression(node) ? node.condition
    : ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken ? node.operand
    : null;
  if (tested && isPromise(tested)) report(tested, 'promise used as a condition');
  if (ts.isBinaryExpression(node) && [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken].includes(node.operatorToken.kind) && isPromise(node.left)) {
    report(node.left, 'promise used as a condition');
  }
  ts.forEachChild(node, visit);
}

for (const sf of program.getSourceFiles()) {
  if (sf.isDeclarationFile || sf.fileName.includes('/node_modules/')) continue;
  visit(sf);
}
for (const p of problems) console.log(p);
if (problems.length) {
  console.log(`${problems.length} promise(s) dropped or tested as values.`);
  process.exit(1);
}
