#!/usr/bin/env bash
# Builds the reference for "old matcher vs new matcher, everything else equal" (issue #11):
# a commit that is <base> (default HEAD) with only the trace engine's matcher put back to
# matching v1 as of b2fd9e7 — its matching sources (packages/matching/src/v1/), its
# single-key findCandidates (packages/contacts/src/find-candidates-v1.ts) and its engine
# logic (exact address key only, v1 scoring, phones read with the candidates) — in
# createContactTraceEngine, with today's options (maxPeople, `matched`). Gateway, worker,
# bus, storage, metrics and everything else stay <base>'s. Prints the commit's hash; it is
# not on any branch unless you name one (-b NAME). Compare with:
#   flock /work/bench.lock node test/bench/sync-pair.ts --ref "$(test/bench/matcher-v1-reference.sh)" -- …
set -euo pipefail
V1=b2fd9e7
base=HEAD
branch=
while [ $# -gt 0 ]; do
  case "$1" in
    -b) branch=$2; shift 2 ;;
    *) base=$1; shift ;;
  esac
done
root=$(git rev-parse --show-toplevel)
base=$(git -C "$root" rev-parse "$base^{commit}")
dir=$(mktemp -d /tmp/matcher-v1-ref-XXXXXX)
trap 'git -C "$root" worktree remove --force "$dir" >/dev/null 2>&1 || rm -rf "$dir"' EXIT
git -C "$root" worktree add --detach "$dir" "$base" >/dev/null 2>&1
cd "$dir"
mkdir -p packages/matching/src/v1
for f in $(git ls-tree -r --name-only "$V1" packages/matching/src); do
  out=packages/matching/src/v1/${f#packages/matching/src/}
  mkdir -p "$(dirname "$out")"
  git show "$V1:$f" >"$out"
done
git show "$V1:packages/contacts/src/find-candidates.ts" >packages/contacts/src/find-candidates-v1.ts
cat >packages/core/src/contact-trace-engine.ts <<'EOF'
// Benchmark reference only (test/bench/matcher-v1-reference.sh): matching v1's engine of
// b2fd9e7 (exact address key, v1 scoring, phones read with the candidates) with today's
// options, so the sync bench can compare old and new matcher with everything else equal.
import type { Property, TraceResult } from '@skiptrace/contracts';
import { findCandidates, type ContactCandidate } from '../../contacts/src/find-candidates-v1.ts';
import { buildMatchQuery, rankCandidates, type MatchQuery } from '../../matching/src/v1/index.ts';
import type { Sql } from '@skiptrace/storage';
import type { TraceEngine, TraceOutcome } from './trace-engine.ts';

export const DEFAULT_MAX_PEOPLE = 10;

export interface ContactTraceEngineOptions {
  maxPeople?: number;
  candidateLimits?: unknown;
}

const NO_ADDRESS = 'no contact on file at this address';
const NO_NAME = 'people live at this address but none matches the owner name given';

function outcomeOf(query: MatchQuery, candidates: ContactCandidate[], maxPeople: number): TraceOutcome {
  if (candidates.length === 0) return { status: 'no_match', results: [], error: NO_ADDRESS };
  const ranked = rankCandidates(
    query,
    candidates.map((c) => ({
      first_name: c.firstName,
      last_name: c.lastName,
      address_key: c.addressKey,
      unit_key: c.unitKey,
      c,
    })),
  );
  if (ranked.length === 0) return { status: 'no_match', results: [], error: NO_NAME };
  const results: TraceResult[] = ranked.slice(0, maxPeople).map(({ candidate: { c }, confidence, reasons }) => ({
    first_name: c.firstName,
    last_name: c.lastName,
    confidence,
    reasons,
    phones: c.phones,
    emails: c.emails,
  }));
  return ranked.length > maxPeople
    ? { status: 'completed', results, matched: ranked.length }
    : { status: 'completed', results };
}

export function createContactTraceEngine(db: Sql, options: ContactTraceEngineOptions = {}): TraceEngine {
  const maxPeople = options.maxPeople ?? DEFAULT_MAX_PEOPLE;
  async function traceMany(properties: Property[]): Promise<TraceOutcome[]> {
    const queries = properties.map((p) => buildMatchQuery(p));
    const byKey = await findCandidates(
      db,
      queries.map((q) => q.address.key),
    );
    return queries.map((q) => outcomeOf(q, byKey.get(q.address.key) ?? [], maxPeople));
  }
  return {
    traceMany,
    async trace(property) {
      const [outcome] = await traceMany([property]);
      return outcome!;
    },
  };
}
EOF
git add -A
git -c user.name="${GIT_AUTHOR_NAME:-bench}" -c user.email="${GIT_AUTHOR_EMAIL:-bench@localhost}" \
  commit -q --no-verify -m "bench reference: $(git rev-parse --short "$base") with matching v1 ($V1) in the trace engine"
commit=$(git rev-parse HEAD)
[ -n "$branch" ] && git -C "$root" branch -f "$branch" "$commit"
echo "$commit"
