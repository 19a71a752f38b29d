// report.html: one run's report (RunReport, run-report.ts) as a page a partner opens from disk. The verdict first, then
// the three outcomes apart: the violations with a request, its answer and a curl each, the contradicted assumptions
// with the spec line to change, the checks that could not be judged; then the checks that passed only after retries,
// the drift since a baseline run, the documented flows as workflows (a live run), and the coverage as an operation × status × scheme grid.
// Self-contained and offline: inline CSS, no font, image or script from elsewhere, and a Content-Security-Policy that
// allows nothing else (the one inline script, which adds copy buttons, and the style sheet are allowed by their hash).
// Every text comes from a server or from the suite's reading of one, so every text is escaped: the page is built with
// a template tag that escapes each value unless it is markup this module made (html-markup.ts).
export { escapeHtml } from './html-markup.ts';
import { createHash } from 'node:crypto';
import { escapeHtml, Html, html } from './html-markup.ts';
import { workflowsSection } from './workflows-html.ts';
import type { Evidence } from '../../send/evidence.ts';
import type { CoverageRow, ViolationGroup } from '../report-model.ts';
import { specOperations } from '../../model/spec.ts';
import type { FailedCheck } from '../../judge/outcomes.ts';
import type { ContradictedRow, Drift, DriftList, RetriedCheck, RunReport, VerdictWord } from '../report-model.ts';

/** Text whose `code spans` (the specs write them in Markdown) become <code>, the rest escaped. */
const withCode = (text: string): Html =>
  new Html(
    text
      .split(/`([^`]+)`/)
      .map((piece, index) => (index % 2 ? `<code>${escapeHtml(piece)}</code>` : escapeHtml(piece)))
      .join(''),
  );

/** A long request line (a 300-character parameter name) cut in the middle: its start and end say what it was. */
const shorten = (text: string, max = 120) =>
  text.length <= max ? text : `${text.slice(0, max - 40)}…${text.slice(-30)} (${text.length} characters)`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

const STYLE = `
:root { --ink: #1d2433; --muted: #5b6474; --line: #e3e6ec; --soft: #f6f7f9; --bg: #fff;
  --fail: #b42318; --fail-bg: #fdf0ef; --warn: #9a5a00; --warn-bg: #fff6e5; --unjudged: #5b3cc4; --unjudged-bg: #f3f0fd;
  --pass: #11703f; --pass-bg: #ecf8f1; --mono: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
html { background: var(--bg); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", "DejaVu Sans", sans-serif; }
body { margin: 0; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 32px 48px; }
h1, h2, h3, h4 { line-height: 1.25; margin: 0; }
h2 { font-size: 21px; margin: 40px 0 6px; padding-top: 12px; border-top: 1px solid var(--line); display: flex; align-items: baseline; gap: 10px; }
h2 .n { font-size: 14px; font-weight: 600; border-radius: 999px; padding: 1px 9px; background: var(--soft); color: var(--muted); }
h3 { font-size: 16.5px; margin: 2px 0 8px; overflow-wrap: anywhere; }
h4 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 14px 0 4px; }
p { margin: 6px 0; }
code, pre { font-family: var(--mono); font-size: 13px; }
code { background: var(--soft); border-radius: 4px; padding: 0 4px; overflow-wrap: anywhere; }
pre { margin: 0; padding: 10px 12px; background: var(--soft); border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
.intro { color: var(--muted); max-width: 80ch; }
.none { color: var(--muted); font-style: italic; }
a { color: inherit; }

.verdict { border-radius: 10px; padding: 20px 24px; display: grid; grid-template-columns: auto 1fr; gap: 6px 24px; align-items: center; border: 1px solid; }
.verdict .word { font-size: 44px; font-weight: 800; letter-spacing: .02em; line-height: 1.05; color: #fff; border-radius: 8px; padding: 8px 20px; grid-row: span 2; max-width: 340px; text-align: center; }
.verdict .lead { font-size: 19px; font-weight: 600; margin: 0; }
.verdict .sub { color: var(--muted); margin: 0; }
.verdict ul { grid-column: 2; margin: 4px 0 0; padding-left: 20px; }
.v-pass { background: var(--pass-bg); border-color: #b7e2c9; } .v-pass .word { background: var(--pass); }
.v-fail { background: var(--fail-bg); border-color: #f2c4bf; } .v-fail .word { background: var(--fail); }
.v-unjudged { background: var(--unjudged-bg); border-color: #d3c9f6; } .v-unjudged .word { background: var(--unjudged); }

.outcomes { display: grid; grid-template-columns: repeat(3, 1fr); gap: 12px; margin: 14px 0 8px; }
.tile { display: block; text-decoration: none; border: 1px solid var(--line); border-top: 4px solid; border-radius: 8px; padding: 10px 14px; }
.tile .count { font-size: 30px; font-weight: 750; line-height: 1.1; }
.tile .name { font-weight: 650; }
.tile .what { color: var(--muted); font-size: 13.5px; }
.tile.fail { border-top-color: var(--fail); } .tile.fail .count { color: var(--fail); }
.tile.warn { border-top-color: var(--warn); } .tile.warn .count { color: var(--warn); }
.tile.unjudged { border-top-color: var(--unjudged); } .tile.unjudged .count { color: var(--unjudged); }
.tile.zero { border-top-color: var(--line); } .tile.zero .count { color: var(--muted); }
.others { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 8px 0 2px; color: var(--muted); padding: 0; list-style: none; }
.others b { color: var(--ink); }
.transport { color: var(--muted); font-size: 13px; margin: 2px 0 0; }
nav { margin: 14px 0 0; display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 14px; }
nav a { color: var(--muted); text-decoration: none; border-bottom: 1px dotted var(--muted); }

.card { border: 1px solid var(--line); border-left: 4px solid; border-radius: 8px; padding: 14px 18px 16px; margin: 14px 0; }
.card.violation { border-left-color: var(--fail); }
.card.assumption { border-left-color: var(--warn); }
.where { color: var(--muted); font-size: 13.5px; margin: 0; overflow-wrap: anywhere; }
.num { display: inline-block; min-width: 24px; text-align: center; font-size: 13px; border-radius: 999px; margin-right: 6px; color: #fff; vertical-align: 2px; }
.violation .num { background: var(--fail); } .assumption .num { background: var(--warn); }
.sentence { font-size: 15px; margin: 4px 0; overflow-wrap: anywhere; }
.seen { color: var(--muted); font-size: 13.5px; margin: 4px 0 0; }
.seen li { overflow-wrap: anywhere; }
.seen ul { margin: 2px 0; padding-left: 20px; }
.exchange { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.exchange pre { max-height: 16em; overflow: auto; }
.repro { position: relative; }
.repro pre { background: #1f2430; color: #e8ebf1; border-color: #1f2430; }
button.copy { position: absolute; right: 8px; top: 8px; font: 12px system-ui, sans-serif; border: 1px solid #596173; background: #2d3342; color: #e8ebf1; border-radius: 5px; padding: 2px 10px; cursor: pointer; }
details { margin: 10px 0 0; }
summary { cursor: pointer; color: var(--muted); }
.new { font-size: 12px; font-weight: 700; color: var(--fail); border: 1px solid currentColor; border-radius: 4px; padding: 0 5px; margin-left: 6px; vertical-align: 2px; white-space: nowrap; }
.intro code { white-space: nowrap; }
.observed { margin: 4px 0; padding-left: 0; list-style: none; }
.observed li { margin: 6px 0; }
.change { margin-top: 10px; }
.list { padding-left: 22px; }
.list li { margin: 6px 0; overflow-wrap: anywhere; }
.file { color: var(--muted); font-size: 13px; }
table { border-collapse: collapse; }
.plain th, .plain td { text-align: left; padding: 5px 12px 5px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
.drift { display: grid; grid-template-columns: repeat(3, 1fr); gap: 12px; }
.drift > div { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
.drift h3 { font-size: 15px; }
.drift ul { padding-left: 18px; margin: 4px 0; } .drift li { overflow-wrap: anywhere; margin: 3px 0; }

.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center; color: var(--muted); font-size: 13px; margin: 8px 0; }
.grid { width: 100%; font-size: 13px; }
.grid th, .grid td { border-bottom: 1px solid var(--line); padding: 5px 4px; text-align: center; vertical-align: middle; }
.grid thead th { font-family: var(--mono); font-weight: 600; color: var(--muted); border-bottom: 2px solid var(--line); }
.grid th.api { text-align: left; font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); vertical-align: top; padding-top: 9px; width: 74px; }
.grid th.op { text-align: left; font-weight: 500; white-space: nowrap; padding-right: 10px; }
.grid th.op code { background: none; padding: 0; font-weight: 600; }
.grid th.op .id { display: block; color: var(--muted); font-size: 12px; }
.grid td.na { background: repeating-linear-gradient(135deg, #fff 0 5px, var(--soft) 5px 10px); }
.grid td.total { font-variant-numeric: tabular-nums; color: var(--muted); white-space: nowrap; }
.grid tbody + tbody tr:first-child > * { border-top: 2px solid var(--line); }
.mark { display: inline-block; min-width: 22px; height: 19px; line-height: 17px; margin: 1px; padding: 0 4px; border-radius: 5px; border: 1.5px solid; font-size: 11.5px; font-weight: 650; font-variant-numeric: tabular-nums; vertical-align: middle; }
.mark.miss { border-style: dashed; background: #fff; opacity: .75; }
.mark.hit { color: #fff; }
.s0 { border-color: #1f6feb; } .s0.hit { background: #1f6feb; }
.s1 { border-color: #0f7b6c; } .s1.hit { background: #0f7b6c; }
.s2 { border-color: #8250df; } .s2.hit { background: #8250df; }
.s3 { border-color: #b35900; } .s3.hit { background: #b35900; }
.s4 { border-color: #bf3989; } .s4.hit { background: #bf3989; }
.s5 { border-color: #57606a; } .s5.hit { background: #57606a; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
footer { margin-top: 40px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); padding-top: 12px; }
@media (max-width: 820px) { .outcomes, .drift, .exchange { grid-template-columns: 1fr; } main { padding: 16px; } }
@media print { button.copy { display: none; } .exchange pre { max-height: none; } }
`;

/** Adds a copy button above each curl; without JavaScript the curl is selectable text, and nothing is missing. */
const SCRIPT = `
for (const pre of document.querySelectorAll('pre.curl')) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(pre.textContent);
      button.textContent = 'Copied';
    } catch {
      const range = document.createRange();
      range.selectNodeContents(pre);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    }
    setTimeout(() => { button.textContent = 'Copy'; }, 2500);
  });
  pre.before(button);
}
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
/** Nothing but this page's own style sheet and script: no request leaves the page, and injected markup could do nothing. */
const CSP = `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;

const VERDICT_CLASS: Record<VerdictWord, string> = { PASS: 'v-pass', FAIL: 'v-fail', 'COULD NOT JUDGE': 'v-unjudged' };

/** What the verdict means for this run, in one sentence. */
function verdictLead(report: RunReport): string {
  const { counts, verdict } = report;
  if (verdict.word === 'PASS')
    return counts.contradicted
      ? `No violation, and every check could be judged. This server differs from ${counts.contradicted === 1 ? 'a guess' : `${counts.contradicted} guesses`} of the specs (below); that does not fail this run.`
      : 'No violation, and every check could be judged.';
  if (verdict.word === 'COULD NOT JUDGE')
    return `No violation found, but ${plural(counts.unjudged, 'check')} got no answer the suite could judge: neither a pass nor a fail.`;
  if (counts.violations) {
    const promises = report.violations.length;
    return promises
      ? `The server broke ${promises === 1 ? 'a promise' : `${promises} promises`} of the published documentation (${plural(counts.violations, 'check')} found a violation).`
      : `The server broke the contract: ${plural(counts.violations, 'check')} found a violation.`;
  }
  if (verdict.strict && counts.contradicted)
    return `This run is strict, and ${plural(counts.contradicted, 'assumption')} of the specs ${counts.contradicted === 1 ? 'is' : 'are'} contradicted by this server.`;
  if (report.gateFailures.length) return 'A gate of this run failed.';
  return 'The suite failed without a classified check: see the run’s output.';
}

function verdictSection(report: RunReport): Html {
  const { verdict, counts } = report;
  const when = report.generatedAt.replace('T', ' ').replace(/(:\d\d)?(\.\d+)?Z$/, ' UTC');
  const strictness = verdict.strict
    ? 'strict: contradicted assumptions fail the run'
    : 'not strict: contradicted assumptions are reported, not failed';
  const tile = (kind: string, count: number, name: string, what: string, anchor: string) =>
    html`<a class="tile ${count ? kind : 'zero'}" href="#${anchor}"><div class="count">${count}</div><div class="name">${name}</div><div class="what">${what}</div></a>`;
  const exercised = `${report.coverage.exercised} of ${report.coverage.total}`;
  return html`<header id="verdict" class="verdict ${VERDICT_CLASS[verdict.word] ?? 'v-unjudged'}">
<h1 class="word">${verdict.word}</h1>
<p class="lead">${verdictLead(report)}</p>
<p class="sub">Target <b>${report.target}</b> · ${when} · ${strictness} · exit code ${verdict.exitCode}</p>
${report.gateFailures.length ? html`<ul class="gates">${report.gateFailures.map((g) => html`<li>${g}</li>`)}</ul>` : ''}
</header>
<section class="outcomes" aria-label="The three outcomes">
${tile('fail', counts.violations, counts.violations === 1 ? 'Violation' : 'Violations', `${report.violations.length > 0 && report.violations.length !== counts.violations ? `Checks that found the server breaking ${plural(report.violations.length, 'documented promise')}.` : 'The server broke a documented promise.'} These fail the run.`, 'violations')}
${tile('warn', counts.contradicted, counts.contradicted === 1 ? 'Contradicted assumption' : 'Contradicted assumptions', `Where the documentation says “not shown”, the specs guessed otherwise. ${verdict.strict ? 'This strict run fails on them.' : 'Reported, not failed.'}`, 'contradicted')}
${tile('unjudged', counts.unjudged, 'Could not judge', 'No answer to judge: unreachable, timed out, throttled, or the suite’s own error. Neither pass nor fail.', 'unjudged')}
</section>
<ul class="others">
<li><b>${counts.passed}</b> checks passed</li>
<li><b>${counts.passedAfterRetries}</b> passed only after retries</li>
<li><b>${counts.skipped}</b> skipped</li>
<li><b>${counts.confirmed}</b> assumptions confirmed</li>
<li><b>${exercised}</b> coverage cells exercised</li>
</ul>
${report.transport ? html`<p class="transport">Requests: ${report.transport.replace(/^contract: (requests: )?/, '')}</p>` : ''}`;
}

function navigation(report: RunReport): Html {
  const link = (anchor: string, text: string) => html`<a href="#${anchor}">${text}</a>`;
  return html`<nav aria-label="Sections">${[
    link('violations', `Violations (${report.violations.length})`),
    link('contradicted', `Contradicted assumptions (${report.contradicted.length})`),
    link('unjudged', `Could not judge (${report.unjudged.length})`),
    link('retries', `Passed after retries (${report.passedAfterRetries.length})`),
    report.drift ? link('drift', 'Since the last run') : '',
    report.workflows ? link('workflows', `Workflows (${report.workflows.workflows.length})`) : '',
    link('coverage', 'Coverage'),
  ]}</nav>`;
}

function exampleBlock(example: Evidence): Html {
  const { request, answer } = example;
  const requestText = [
    `${request.method} ${request.url}`,
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
    ...(request.body ? ['', request.body] : []),
  ].join('\n');
  const answerText = `${answer.status} ${answer.contentType}\n\n${answer.body || '(empty body)'}`;
  return html`<div class="exchange">
<div><h4>Request</h4><pre class="request">${requestText}</pre></div>
<div><h4>Answer</h4><pre class="answer">${answerText}</pre></div>
</div>
<h4>Reproduce</h4>
<div class="repro"><pre class="curl">${example.curl}</pre></div>`;
}

/** A check named "describe > check": the describe block is where, the last part what it expects. */
function splitName(name: string): { where?: string; what: string } {
  const parts = name.split(' > ');
  return parts.length > 1 ? { where: parts.slice(0, -1).join(' › '), what: parts.at(-1)! } : { what: name };
}

function violationCard(report: RunReport, group: ViolationGroup, index: number): Html {
  const { where, what } = splitName(group.promise);
  // Expected against got in one sentence; a report.json of an older kit has none, and shows the failures' first lines.
  const sentence: string | undefined = group.sentence;
  const messages = group.messages.filter((m) => m !== group.promise && !sentence?.includes(m));
  const files = [...new Set(group.checks.flatMap((check) => report.violatingChecks.filter((c) => c.name === check).map((c) => c.file)))];
  const onlyItself = group.checks.length === 1 && group.checks[0] === group.promise;
  const isNew = report.drift?.violations.new.includes(group.promise);
  const [first, ...more] = group.examples;
  return html`<article class="card violation" id="violation-${index + 1}">
${where ? html`<p class="where">${where}</p>` : ''}
<h3><span class="num">${index + 1}</span>${what}${isNew ? html`<span class="new">new since the last run</span>` : ''}</h3>
${sentence ? html`<p class="sentence">${sentence}</p>` : messages.map((m) => html`<p class="sentence"><b>Got: </b>${m}</p>`)}
${
  onlyItself && !(sentence && messages.length)
    ? html`<p class="seen">Seen ${times(group.count)}, in this check${files.length ? html`, in <code>${files[0]!}</code>` : ''}.</p>`
    : html`<details class="seen"><summary>Seen ${times(group.count)}, in ${plural(group.checks.length, 'check')}${
        sentence && messages.length ? `, with ${plural(messages.length, 'other failure')}` : ''
      }</summary><ul>${group.checks.map((c) => html`<li>${c}</li>`)}</ul>${
        sentence && messages.length ? html`Other failures of this promise:<ul>${messages.map((m) => html`<li>${m}</li>`)}</ul>` : ''
      }${files.length ? html`In ${files.map((f, i) => html`${i ? ', ' : ''}<code>${f}</code>`)}.` : ''}</details>`
}
${
  first
    ? exampleBlock(first)
    : html`<p class="none">No request was recorded with this failure: the message above says what the check saw.${
        files.length ? html` To see it again, run its file: <code>npm run contract:live -- ${files.join(' ')}</code>` : ''
      }</p>`
}
${more.length ? html`<details><summary>${plural(more.length, 'more example')}</summary>${more.map(exampleBlock)}</details>` : ''}
</article>`;
}

function violationsSection(report: RunReport): Html {
  const groups = report.violations;
  return html`<section id="violations">
<h2>Violations <span class="n">${groups.length}</span></h2>
${
  groups.length
    ? html`<p class="intro">Each broken promise with a request that shows it, the answer, and a curl to reproduce it. Credentials and addresses appear as the <code>LP_*</code> variables that hold them, never their values: with those set in your shell, the curl runs as it is.</p>
${groups.map((g, i) => violationCard(report, g, i))}`
    : html`<p class="none">None: no check found the server breaking a documented promise.</p>`
}
</section>`;
}

function contradictedCard(report: RunReport, row: ContradictedRow, index: number): Html {
  const [first, ...more] = row.observed;
  const isNew = report.drift?.contradicted.new.some((key) => key === row.what || key.includes(row.what));
  return html`<article class="card assumption" id="assumption-${index + 1}">
<p class="where">Section ${row.seed} of the published documentation leaves it open · ${row.apis.join(', ')} API</p>
<h3><span class="num">${index + 1}</span>The spec guessed: ${withCode(row.what)}${isNew ? html`<span class="new">new since the last run</span>` : ''}</h3>
${
  first
    ? html`<h4>What this server did</h4><ul class="observed">${[first, ...more].map(
        (o, i) =>
          html`<li><code>${shorten(o.request)}</code> answered <b>${o.status} ${o.contentType}</b>${
            i === 0 ? html`<pre>${o.body || '(empty body)'}</pre>` : ''
          }</li>`,
      )}</ul>`
    : ''
}
${row.evidence.length ? html`<h4>How it differs</h4><ul class="list">${row.evidence.map((e) => html`<li>${e}</li>`)}</ul>` : ''}
<p class="change"><b>If the server is right, change the spec:</b> ${
    row.spec
      ? html`<code>${row.spec.file}${row.line ? `:${row.line}` : ''}</code> <span class="file">(the x-assumption at ${row.spec.pointer})</span>`
      : html`<span class="file">source file not found; in the bundle at ${row.apis.join(', ')}#${row.pointer}</span>`
  }</p>
</article>`;
}

function contradictedSection(report: RunReport): Html {
  const rows = report.contradicted;
  return html`<section id="contradicted">
<h2>Contradicted assumptions <span class="n">${rows.length}</span></h2>
${
  rows.length
    ? html`<p class="intro">Where the published documentation says “not shown”, the specs made a guess, and this server decided otherwise. These are not violations: ${
        report.verdict.strict ? 'this run is strict, so they fail it' : 'they fail a run only with --strict-assumptions'
      }. If the server is right, change the spec where it says.</p>
${rows.map((r, i) => contradictedCard(report, r, i))}`
    : html`<p class="none">None: every guess this run could test held.</p>`
}
</section>`;
}

function unjudgedSection(report: RunReport): Html {
  const checks: FailedCheck[] = report.unjudged;
  return html`<section id="unjudged">
<h2>Could not judge <span class="n">${checks.length}</span></h2>
${
  checks.length
    ? html`<p class="intro">These checks got no answer the suite may judge. They are neither violations nor passes. Check the target address, its availability and the <code>LP_*</code> settings, or give slow or throttled targets more room (<code>--timeout</code>, <code>--tries</code>, <code>--max-wait</code>, <code>--rate-limit</code>, <code>--idp-rate-limit</code>).</p>
<ol class="list">${checks.map(
        (c) =>
          html`<li><b>${c.name}</b>${report.drift?.unjudged.new.includes(c.name) ? html`<span class="new">new since the last run</span>` : ''} <span class="file">${c.file}</span><br>${c.reason ?? ''}</li>`,
      )}</ol>`
    : html`<p class="none">None: every check that ran got an answer to judge.</p>`
}
</section>`;
}

function retriesSection(report: RunReport): Html {
  const checks: RetriedCheck[] = report.passedAfterRetries;
  return html`<section id="retries">
<h2>Passed only after retries <span class="n">${checks.length}</span></h2>
${
  checks.length
    ? html`<p class="intro">These checks passed, and their verdict stands; but some of their requests were sent again after a transient fault, or waited out a 429 or a 503 with Retry-After.</p>
<table class="plain"><thead><tr><th>Check</th><th>Attempts beyond the first</th><th>Of which throttled</th></tr></thead><tbody>${checks.map(
        (c) => html`<tr><td>${c.check}</td><td>${c.retried}</td><td>${c.throttled}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="none">None: no passing check needed a retry.</p>`
}
</section>`;
}

function driftSection(drift: Drift): Html {
  const column = (title: string, list: DriftList) => html`<div><h3>${title}</h3>
<h4>New since the last run (${list.new.length})</h4>${
    list.new.length ? html`<ul>${list.new.map((k) => html`<li>${withCode(k)}</li>`)}</ul>` : html`<p class="none">none</p>`
  }
<h4>No longer seen (${list.gone.length})</h4>${
    list.gone.length ? html`<ul>${list.gone.map((k) => html`<li>${withCode(k)}</li>`)}</ul>` : html`<p class="none">none</p>`
  }
<p class="file">Still seen: ${list.still}</p></div>`;
  return html`<section id="drift">
<h2>Since the last run</h2>
<p class="intro">Compared with the baseline run in <code>${drift.baseline}</code>${drift.baselineVerdict ? html`, whose verdict was <b>${drift.baselineVerdict}</b>` : ''}.</p>
<div class="drift">${column('Violations', drift.violations)}${column('Contradicted assumptions', drift.contradicted)}${column('Could not judge', drift.unjudged)}</div>
</section>`;
}

/** Documented statuses in reading order: codes by number, a range ("4XX") after the codes of its class. */
const statusOrder = (status: string) => Number(status.replace(/X/gi, '9')) || 999;

function coverageSection(report: RunReport): Html {
  const rows: CoverageRow[] = report.coverage.rows;
  if (!rows.length) return html`<section id="coverage"><h2>Coverage</h2><p class="none">This run wrote no coverage table.</p></section>`;
  const statuses = [...new Set(rows.map((r) => r.status))].sort((a, b) => statusOrder(a) - statusOrder(b) || a.localeCompare(b));
  const schemes = [...new Set(rows.map((r) => r.scheme))];
  const schemeClass = (scheme: string) => `s${schemes.indexOf(scheme) % 6}`;
  const opIds = [...new Set(rows.map((r) => r.operationId))];
  const known = new Map(specOperations().map((o) => [o.operationId, o]));
  // Operations grouped by API, in the specs' order; an operation the specs no longer have goes last.
  const apiOf = (id: string) => known.get(id)?.api ?? 'other';
  const apis = [...new Set([...specOperations().map((o) => o.api as string), 'other'])].filter((api) =>
    opIds.some((id) => apiOf(id) === api),
  );
  const title = (api: string) => api.charAt(0).toUpperCase() + api.slice(1);
  const mark = (row: CoverageRow) =>
    row.exercised
      ? html`<span class="mark hit ${schemeClass(row.scheme)}" title="${row.scheme}: exercised ${times(row.exercised)}">${row.exercised}<span class="sr"> ${row.scheme}</span></span>`
      : html`<span class="mark miss ${schemeClass(row.scheme)}" title="${row.scheme}: not exercised: ${row.whyNot ?? 'no reason recorded'}"><span class="sr">${row.scheme} not exercised</span></span>`;
  const body = apis.map((api) => {
    const ids = opIds.filter((id) => apiOf(id) === api);
    return html`<tbody>${ids.map((id, index) => {
      const op = known.get(id);
      const own = rows.filter((r) => r.operationId === id);
      const done = own.filter((r) => r.exercised).length;
      return html`<tr data-operation="${id}">${index === 0 ? html`<th class="api" scope="rowgroup" rowspan="${ids.length}">${title(api)}</th>` : ''}<th class="op" scope="row">${
        op ? html`<code>${op.method} ${op.path}</code>` : html`<code>${id}</code>`
      }<span class="id">${op ? id : 'not in the specs'}</span></th>${statuses.map((status) => {
        const cell = own.filter((r) => r.status === status);
        return cell.length ? html`<td>${cell.map(mark)}</td>` : html`<td class="na" title="${status} is not documented for ${id}"></td>`;
      })}<td class="total">${done} / ${own.length}</td></tr>`;
    })}</tbody>`;
  });
  // Without a pointer (touch, print), the reasons are listed too, each with the cells it explains.
  const reasons = new Map<string, string[]>();
  for (const row of rows.filter((r) => !r.exercised)) {
    const why = row.whyNot ?? 'no reason recorded';
    reasons.set(why, [...(reasons.get(why) ?? []), `${row.operationId} ${row.status} ${row.scheme}`]);
  }
  return html`<section id="coverage">
<h2>Coverage <span class="n">${report.coverage.exercised} of ${report.coverage.total}</span></h2>
<p class="intro">Each documented status of each operation, per security scheme: a filled mark was exercised (with the number of answers), an outlined one was not (point at it for why). A scheme of “none”, or one the operation does not declare, is a negative request. Hatched cells are statuses the operation does not document.</p>
<div class="legend">${schemes.map((s) => html`<span><span class="mark hit ${schemeClass(s)}">n</span> ${s}</span>`)}<span><span class="mark miss s5"></span> not exercised</span></div>
<table class="grid" id="coverage-grid">
<thead><tr><th scope="col"><span class="sr">API</span></th><th scope="col" class="op">Operation</th>${statuses.map((s) => html`<th scope="col">${s}</th>`)}<th scope="col">Exercised</th></tr></thead>
${body}
</table>
<details><summary>Why not exercised (${plural(rows.length - report.coverage.exercised, 'cell')})</summary><ul class="list">${[
    ...reasons,
  ].map(([why, cells]) => html`<li>${why}<br><span class="file">${cells.join(' · ')}</span></li>`)}</ul></details>
</section>`;
}

/** The whole page: self-contained, offline, escaped. */
export function htmlReport(report: RunReport): string {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${new Html(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${report.verdict.word}: contract run against ${report.target}</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<main>
${verdictSection(report)}
${navigation(report)}
${violationsSection(report)}
${contradictedSection(report)}
${unjudgedSection(report)}
${retriesSection(report)}
${report.drift ? driftSection(report.drift) : ''}
${report.workflows ? workflowsSection(report.workflows) : ''}
${coverageSection(report)}
<footer><p><code>${report.verdict.line}</code></p><p>Written by the contract suite (<code>contract-tests/</code>) on ${report.generatedAt}; the same data is in <code>report.json</code> beside this page.</p></footer>
</main>
<script>${new Html(SCRIPT)}</script>
</body>
</html>
`;
  return page.text;
}
