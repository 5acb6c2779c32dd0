#!/usr/bin/env bash
# Runs every check and every test tier: type-check, lint (with the architecture rules), build, jest.
# Ends with the plain line `N passed, N failed` computed from jest's JSON results.
set -uo pipefail
cd "$(dirname "$0")/.."

step() { echo; echo "== $*"; }

if ! command -v chromium >/dev/null 2>&1 && [ -z "${CHROMIUM_PATH:-}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing Debian's chromium for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || echo "chromium could not be installed"
  else
    echo "chromium is not installed and cannot be installed here: browser tests will fail (set CHROMIUM_PATH)"
  fi
fi

# The SSO domain verification tests serve TXT records from a real DNS server on loopback (test/support/dns-server.ts).
if [ ! -x /usr/sbin/dnsmasq ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing Debian's dnsmasq-base for the DNS verification tests"
    (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dnsmasq-base >/dev/null 2>&1 \
      || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dnsmasq-base >/dev/null)) \
      || echo "dnsmasq-base could not be installed"
  else
    echo "dnsmasq is not installed and cannot be installed here: the SSO DNS tests will fail or skip"
  fi
fi

# The PostgreSQL event store's suites start a throw-away cluster of their own (own directory, own port) from
# Debian's binaries; the distro's own cluster is not created, so nothing else listens or runs in the way.
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing Debian's postgresql for the PostgreSQL event store tests"
    mkdir -p /etc/postgresql-common
    [ -f /etc/postgresql-common/createcluster.conf ] || echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
    (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null 2>&1 \
      || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null)) \
      || echo "postgresql could not be installed"
  else
    echo "PostgreSQL is not installed and cannot be installed here: the PostgreSQL event store suites will skip"
  fi
fi

# The scale-out topology test puts Debian's nginx in front of two API nodes (test/support/topology.ts); it
# runs its own nginx with its own configuration and port, so the package's service is never needed.
if [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing Debian's nginx for the scale-out topology test"
    (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null 2>&1 \
      || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null)) \
      || echo "nginx could not be installed"
  else
    echo "nginx is not installed and cannot be installed here: the scale-out topology test will skip"
  fi
fi

# The compose files are validated by a real compose client (test/compose); no container engine is needed.
if ! command -v docker-compose >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing Debian's docker-compose to validate the compose files"
    (DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null 2>&1 \
      || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null)) \
      || echo "docker-compose could not be installed"
  else
    echo "docker-compose is not installed and cannot be installed here: the compose-file tests will fail"
  fi
fi

failed_checks=0
step "type-check"; npm run --silent typecheck || failed_checks=$((failed_checks + 1))
step "lint and architecture rules"; npm run --silent lint || failed_checks=$((failed_checks + 1))
step "build"; npm run --silent build || failed_checks=$((failed_checks + 1))

step "tests"
mkdir -p .ci/artifacts
rm -f .ci/jest-results.json
node --experimental-vm-modules node_modules/jest/bin/jest.js --ci --json --outputFile=.ci/jest-results.json "$@"
# Last, so that its `N passed, N failed` line (failed checks counted as failures) ends the run.
node scripts/test-summary.mjs .ci/jest-results.json "$failed_checks"
