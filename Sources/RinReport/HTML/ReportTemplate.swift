import RinDomain
import RinRuntime
import RinStorage

/// The operator report's page (a Mustache template over `ReportPage`). Self-contained: inline
/// CSS and SVG, no script, font or image from anywhere, so it opens from disk, mails as one file
/// and prints. Colours keep a contrast of at least 4.5:1 on white; a failed run is a square, not
/// only red; each chart has a title and a text summary; the layout folds to a phone's width.
enum ReportTemplate {
  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>rin-jobs report, {{generatedAt}}</title>
    <style>
    :root { color: #1b1b1b; background: #fff; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
    body { max-width: 72rem; margin: 0 auto; padding: 1rem; }
    h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
    h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid #ccc; }
    h3 { font-size: 1rem; margin: 1.25rem 0 .25rem; }
    .muted { color: #555; }
    .ok { color: #1d6b32; } .bad { color: #b3261e; font-weight: 600; } .warn { color: #8a5300; }
    .scroll { overflow-x: auto; }
    table { border-collapse: collapse; margin: .25rem 0 1rem; font-variant-numeric: tabular-nums; }
    caption { text-align: left; font-weight: 600; padding: .25rem 0; }
    .ts { white-space: nowrap; }
    th, td { text-align: left; padding: .2rem .6rem .2rem 0; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
    td.n, th.n { text-align: right; }
    .cards { display: flex; flex-wrap: wrap; gap: 1rem; }
    .card { border: 1px solid #d0d0d0; border-radius: 6px; padding: .5rem .75rem; flex: 1 1 20rem; }
    .charts { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; }
    figure { margin: 0; flex: 1 1 18rem; max-width: 24rem; }
    figcaption { font-size: .85rem; color: #555; }
    svg { width: 100%; height: auto; }
    svg .axis { stroke: #767676; stroke-width: 1; }
    svg .line { fill: none; stroke: #2958a8; stroke-width: 1.5; }
    svg .ok { fill: #2958a8; } svg .bad { fill: #b3261e; } svg .cut { fill: #8a5300; }
    svg text { font-size: 11px; fill: #555; }
    @media print { .scroll { overflow: visible; } section, figure, .card { break-inside: avoid; } }
    </style>
    </head>
    <body>
    <header>
    <h1>rin-jobs report</h1>
    <p class="muted">Generated {{generatedAt}}, covering runs since {{since}} (UTC). Counts and ids only.</p>
    </header>

    <section id="freshness" aria-labelledby="freshness-h">
    <h2 id="freshness-h">Freshness</h2>
    <p>Users who would see a stale result now: <span id="stale-now" class="{{staleClass}}">{{staleNow}}</span> (judged from the outputs, not the ledger; docs/OPERATIONS.md "Freshness").</p>
    {{#freshness}}
    <div class="scroll"><table id="{{note}}">
    <caption>{{caption}}</caption>
    <thead><tr>{{#headers}}<th scope="col">{{.}}</th>{{/headers}}</tr></thead>
    <tbody>
    {{#rows}}<tr>{{#cells}}<td>{{.}}</td>{{/cells}}</tr>{{/rows}}
    {{#empty}}<tr><td class="muted" colspan="5">no check recorded in this period</td></tr>{{/empty}}
    </tbody></table></div>
    {{/freshness}}
    </section>

    <section id="pipelines" aria-labelledby="pipelines-h">
    <h2 id="pipelines-h">Pipelines</h2>
    <div class="cards">
    {{#pipelines}}
    <div class="card" id="pipeline-{{name}}">
    <h3>{{name}}</h3>
    {{#isPaused}}<p class="warn" id="paused-{{name}}">{{paused}}</p>{{/isPaused}}
    <p><code>{{schedule}}</code> in {{timezone}}. Next: {{nextFires}}.</p>
    <p>Last run: {{lastSlot}}, <span class="{{outcomeClass}}">{{lastOutcome}}</span>.
    {{slotsSucceeded}} of {{slotsExpected}} slots succeeded{{#hasSuperseded}}, <span id="superseded-{{name}}">{{slotsSuperseded}}</span> superseded (skipped by --catch-up latest){{/hasSuperseded}}; <span id="problems-{{name}}">{{problemCount}}</span> missed or failed.</p>
    {{#hasProviders}}<p>Providers: {{providers}}</p>{{/hasProviders}}
    {{#hasProblems}}
    <div class="scroll"><table>
    <thead><tr><th scope="col">slot</th><th scope="col">what</th><th scope="col">detail</th></tr></thead>
    <tbody>
    {{#problems}}<tr><td>{{slot}}</td><td class="bad">{{kind}}</td><td>{{detail}}</td></tr>{{/problems}}
    </tbody></table></div>
    <p class="muted">{{moreProblems}}</p>
    {{/hasProblems}}
    </div>
    {{/pipelines}}
    {{^pipelines}}<p class="muted">No pipeline in the config.</p>{{/pipelines}}
    </div>
    </section>

    <section id="runs" aria-labelledby="runs-h">
    <h2 id="runs-h">Runs</h2>
    {{#jobs}}
    <h3 id="job-{{job}}">{{job}}</h3>
    <p>Runs: <span id="runs-{{job}}">{{runs}}</span> · failed: <span id="failed-{{job}}" class="{{failedClass}}">{{failed}}</span> · interrupted or abandoned: <span id="interrupted-{{job}}" class="{{interruptedClass}}">{{interrupted}}</span>{{#hasDryRuns}} · dry runs, apart (not charted or counted): <span id="dry-{{job}}">{{dryRuns}}</span>{{/hasDryRuns}}{{#hasCorrections}} · owners corrected by the periodic pass with no stamp: <span id="corrections-{{job}}" class="{{correctionsClass}}">{{unstampedCorrections}}</span>{{/hasCorrections}}</p>
    <div class="charts">
    {{#charts}}
    <figure>
    <svg role="img" aria-labelledby="{{id}}-t {{id}}-d" viewBox="0 0 {{width}} {{height}}">
    <title id="{{id}}-t">{{title}}</title>
    <desc id="{{id}}-d">{{summary}}</desc>
    <line class="axis" x1="{{left}}" y1="{{floorY}}" x2="{{right}}" y2="{{floorY}}"/>
    <line class="axis" x1="{{left}}" y1="{{axisEndY}}" x2="{{left}}" y2="{{floorY}}"/>
    <text x="2" y="{{axisEndY}}">{{axisEnd}}</text>
    <text x="2" y="{{floorY}}">0</text>
    <text x="{{left}}" y="{{labelY}}">{{from}}</text>
    <text x="{{right}}" y="{{labelY}}" text-anchor="end">{{to}}</text>
    {{#empty}}<text x="{{left}}" y="{{axisEndY}}" dx="8" dy="16">no finished run</text>{{/empty}}
    <path class="line" d="{{path}}"/>
    {{#points}}
    {{#bad}}<rect class="bad" x="{{x}}" y="{{y}}" width="7" height="7" transform="translate(-3.5 -3.5)"><title>{{label}}</title></rect>{{/bad}}
    {{^bad}}<circle class="{{cssClass}}" cx="{{x}}" cy="{{y}}" r="3"><title>{{label}}</title></circle>{{/bad}}
    {{/points}}
    </svg>
    <figcaption>{{title}}. {{summary}}{{#clipped}} Points above the axis are drawn at its top.{{/clipped}}</figcaption>
    </figure>
    {{/charts}}
    </div>
    {{/jobs}}
    {{^hasJobs}}<p class="muted">No job ran in the period.</p>{{/hasJobs}}

    <h3>Last runs</h3>
    {{#hasRuns}}
    <div class="scroll"><table id="last-runs">
    <thead><tr><th scope="col">run</th><th scope="col">job</th><th scope="col">status</th><th scope="col">started</th>
    <th scope="col" class="n">seconds</th><th scope="col" class="n">rows read</th><th scope="col" class="n">rows/s</th>
    <th scope="col" class="n">written</th><th scope="col">skipped (reason: rows)</th><th scope="col">paused (reason: s)</th><th scope="col">mode</th><th scope="col">error</th></tr></thead>
    <tbody>
    {{#lastRuns}}
    <tr><td>{{id}}</td><td>{{job}}</td><td class="{{statusClass}}">{{status}}</td><td class="ts">{{startedAt}}</td>
    <td class="n">{{seconds}}</td><td class="n">{{rowsRead}}</td><td class="n">{{rowsPerSecond}}</td>
    <td class="n">{{written}}</td><td>{{skipped}}</td><td>{{paused}}</td><td>{{mode}}</td><td>{{error}}</td></tr>
    {{/lastRuns}}
    </tbody></table></div>
    {{/hasRuns}}
    {{^hasRuns}}<p class="muted">No runs in the period.</p>{{/hasRuns}}
    </section>

    <section id="outputs" aria-labelledby="outputs-h">
    <h2 id="outputs-h">What the jobs produced</h2>
    {{#outputs}}
    <div class="scroll"><table id="{{note}}">
    <caption>{{caption}}</caption>
    <thead><tr>{{#headers}}<th scope="col">{{.}}</th>{{/headers}}</tr></thead>
    <tbody>
    {{#rows}}<tr>{{#cells}}<td>{{.}}</td>{{/cells}}</tr>{{/rows}}
    {{#empty}}<tr><td class="muted" colspan="5">nothing yet</td></tr>{{/empty}}
    </tbody></table></div>
    {{/outputs}}
    </section>

    <section id="footprint" aria-labelledby="footprint-h">
    <h2 id="footprint-h">Footprint</h2>
    <p id="footprint-summary" class="{{footprintClass}}">{{footprintSummary}}</p>
    <p class="muted">Measured now, as rinjobs footprint does (docs/OPERATIONS.md "Footprint"): services are the input tables with their keys and owner indexes; our_indexes the indexes the jobs added on them.</p>
    {{#footprint}}
    <div class="scroll"><table id="{{note}}">
    <caption>{{caption}}</caption>
    <thead><tr>{{#headers}}<th scope="col">{{.}}</th>{{/headers}}</tr></thead>
    <tbody>
    {{#rows}}<tr>{{#cells}}<td>{{.}}</td>{{/cells}}</tr>{{/rows}}
    {{#empty}}<tr><td class="muted" colspan="5">nothing measured</td></tr>{{/empty}}
    </tbody></table></div>
    {{/footprint}}
    </section>

    <section id="erasure" aria-labelledby="erasure-h">
    <h2 id="erasure-h">Erasure</h2>
    <p id="erasure-summary" class="{{erasureClass}}">{{erasureSummary}}</p>
    <p class="muted">Checked now, as rinjobs erasure does with its 26-hour window (docs/OPERATIONS.md "Erasure"); erased and swept rows from history-retention's runs. Ids and counts only.</p>
    {{#erasure}}
    <div class="scroll"><table id="{{note}}">
    <caption>{{caption}}</caption>
    <thead><tr>{{#headers}}<th scope="col">{{.}}</th>{{/headers}}</tr></thead>
    <tbody>
    {{#rows}}<tr>{{#cells}}<td>{{.}}</td>{{/cells}}</tr>{{/rows}}
    {{#empty}}<tr><td class="muted" colspan="5">none</td></tr>{{/empty}}
    </tbody></table></div>
    {{/erasure}}
    </section>
    </body>
    </html>

    """
}
