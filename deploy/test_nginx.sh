#!/usr/bin/env bash
# Run deploy/nginx.conf for real, on loopback, in a temp dir: two app processes (the project's CLI, rlhf-lab: one
# worker each, each on its own port) behind nginx, cache and header checks with curl, then a class of learners
# through nginx (benchmarks/locustfile.py).  Stops everything it started, by PID.
#
#   bash deploy/test_nginx.sh                   # checks + a 20 s class of 64 learners
#   DURATION=60 CLIENTS=64 bash deploy/test_nginx.sh
#   DURATION=0 bash deploy/test_nginx.sh        # checks only
#   KEEP=1 bash deploy/test_nginx.sh            # keep the temp dir (logs, cache, locust's CSV and the JSON)
#   LOAD_JSON=out.json bash deploy/test_nginx.sh   # also copy the class's figures there
#
# Needs nginx (Debian: apt-get install -y nginx) and the project venv (.venv) with the `bench` extra (locust) for
# the load.  Exit status: number of failed checks (0 = all good), or 1 if the class saw a failure.
set -u -o pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PY="${PY:-$ROOT/.venv/bin/python}"
NGINX="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
DURATION="${DURATION:-20}"
CLIENTS="${CLIENTS:-64}"
[ -x "$NGINX" ] || { echo "nginx not found (apt-get install -y nginx)"; exit 2; }
[ -x "$PY" ] || { echo "no venv python at $PY"; exit 2; }

TMP="$(mktemp -d /tmp/rlhf-nginx.XXXXXX)"
chmod 755 "$TMP"   # nginx workers run as nobody: they must reach the cache and temp dirs
mkdir -p "$TMP/logs" "$TMP/cache" "$TMP/tmp/body" "$TMP/tmp/proxy"
PIDS=()            # app processes
NGINX_PID=""
FAILED=0

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

stop_pid() {  # stop_pid PID SIGNAL: signal, then wait at most 10 s, then SIGKILL
    local pid="$1" sig="$2" i
    kill -0 "$pid" 2>/dev/null || return 0
    kill "-$sig" "$pid" 2>/dev/null
    for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
}

cleanup() {
    [ -n "$NGINX_PID" ] && stop_pid "$NGINX_PID" QUIT
    for pid in "${PIDS[@]}"; do stop_pid "$pid" TERM; done
    if [ "${KEEP:-0}" = 1 ]; then echo "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

NPORT="$(free_port)"; P1="$(free_port)"; P2="$(free_port)"
while [ "$P2" = "$P1" ] || [ "$P2" = "$NPORT" ]; do P2="$(free_port)"; done
BASE="http://127.0.0.1:$NPORT"

# --- the app: two processes, the project's CLI (one worker each), trusting X-Forwarded-* from 127.0.0.1 -----------
for port in "$P1" "$P2"; do
    (cd "$ROOT" && exec "$PY" -m app.cli --host 127.0.0.1 --port "$port" --proxy-headers) \
        >"$TMP/logs/app-$port.log" 2>&1 &
    PIDS+=("$!")
done

# --- nginx: deploy/nginx.conf with ports, user and paths rewritten (the lines marked "test: rewritten") --------------
sed -e "s|^user www-data;|user nobody nogroup;|" \
    -e "s|/run/nginx-rlhf-lab.pid|$TMP/nginx.pid|" \
    -e "s|/var/log/nginx/rlhf-lab|$TMP/logs/nginx|g" \
    -e "s|/var/cache/nginx/rlhf-lab-tmp|$TMP/tmp|g" \
    -e "s|/var/cache/nginx/rlhf-lab |$TMP/cache |" \
    -e "s|127.0.0.1:8080|127.0.0.1:$NPORT|g" \
    -e "s|127.0.0.1:8001|127.0.0.1:$P1|" \
    -e "s|127.0.0.1:8002|127.0.0.1:$P2|" \
    "$ROOT/deploy/nginx.conf" >"$TMP/nginx.conf"
chown -R nobody:nogroup "$TMP/cache" "$TMP/tmp"
if grep -n "rlhf-lab\.\|:800[12]\|:8080\|www-data" "$TMP/nginx.conf" | grep -v '^\s*#' | grep -v '# the app\|rlhf-lab --port'; then
    echo "config rewrite missed the lines above"; exit 2
fi
up() {  # up PORT…: wait (at most 30 s) until every port answers /healthz
    local i port ok
    for i in $(seq 1 150); do
        ok=1
        for port in "$@"; do
            curl -s -o /dev/null --max-time 2 -H "Host: 127.0.0.1:$port" "http://127.0.0.1:$port/healthz" || ok=0
        done
        [ "$ok" = 1 ] && return 0
        sleep 0.2
    done
    return 1
}
# the app first (nginx would otherwise mark both upstreams failed while they import)
up "$P1" "$P2" || { echo "the app did not come up"; tail -n 20 "$TMP"/logs/app-*.log; exit 2; }
"$NGINX" -t -q -p "$TMP" -c "$TMP/nginx.conf" || exit 2
"$NGINX" -p "$TMP" -c "$TMP/nginx.conf" -g 'daemon off;' &
NGINX_PID="$!"
up "$NPORT" || { echo "nginx did not come up"; tail -n 20 "$TMP/logs/nginx.error.log"; exit 2; }
echo "nginx pid $NGINX_PID on $BASE  →  app pids ${PIDS[*]} on :$P1 :$P2   (temp dir $TMP)"

# --- checks ----------------------------------------------------------------------------------------------------------
H="$TMP/h"
get() {  # get PATH [curl args…]: headers to $H, body to $H.body, prints the status
    local path="$1"; shift
    curl -s --path-as-is --max-time 10 -D "$H" -o "$H.body" -w '%{http_code}' "$@" "$BASE$path"
}
header() { grep -i "^$1:" "$H" | head -1 | cut -d' ' -f2- | tr -d '\r'; }
check() {  # check NAME CONDITION…
    local name="$1"; shift
    if "$@"; then printf '  ok    %s\n' "$name"; else printf '  FAIL  %s\n' "$name"; FAILED=$((FAILED+1)); fi
}
is() { [ "$1" = "$2" ]; }
has() { case "$1" in *"$2"*) return 0;; *) return 1;; esac; }
has_not() { ! has "$1" "$2"; }

echo "checks:"
CSS="$(curl -s --max-time 10 "$BASE/en/" -H 'Cookie: lang=en' | grep -o '/static/app.css?v=[0-9a-f]*' | head -1)"
check "the page links a versioned stylesheet" has "$CSS" "/static/app.css?v="
s=$(get "$CSS"); c1=$(header X-Cache-Status); s2=$(get "$CSS"); c2=$(header X-Cache-Status)
check "static: 200, MISS then HIT ($c1, $c2)" is "$s $s2 $c1 $c2" "200 200 MISS HIT"
check "static: year-long immutable Cache-Control" is "$(header Cache-Control)" "public, max-age=31536000, immutable"
check "static: app's CSP passed through" has "$(header Content-Security-Policy)" "frame-ancestors 'none'"
check "static: exactly one CSP header" is "$(grep -ci '^content-security-policy:' "$H")" "1"
s=$(get "$CSS" -H 'Accept-Encoding: gzip')
check "static: gzip for a gzip client" is "$(header Content-Encoding)" "gzip"

LAB="/en/?rollouts=1024&gpus=16"
s=$(get "$LAB"); cookie=$(header Set-Cookie); c0=$(header X-Cache-Status)
check "lab, no cookie: 200, Set-Cookie lang=en, cache BYPASS ($c0)" is "$s ${cookie%%;*} $c0" "200 lang=en BYPASS"
s=$(get "$LAB"); c0b=$(header X-Cache-Status)
check "lab, no cookie again: still BYPASS, still sets the cookie" is "$c0b $(header Set-Cookie | cut -d';' -f1)" "BYPASS lang=en"
s=$(get "$LAB" -H 'Cookie: lang=en'); c1=$(header X-Cache-Status)
s2=$(get "$LAB" -H 'Cookie: lang=en'); c2=$(header X-Cache-Status)
check "lab with cookie: MISS then HIT ($c1, $c2), no Set-Cookie" is "$c1 $c2 $(header Set-Cookie)" "MISS HIT "
check "lab: Cache-Control public, max-age=300" is "$(header Cache-Control)" "public, max-age=300"
s=$(get "$LAB" -H 'Cookie: lang=zh'); c3=$(header X-Cache-Status)
check "lab with the other language's cookie: BYPASS and the app resets it ($c3)" is "$c3 $(header Set-Cookie | cut -d';' -f1)" "BYPASS lang=en"
check "lab: security headers" has "$(header X-Frame-Options) $(header X-Content-Type-Options) $(header Referrer-Policy)" "DENY nosniff strict-origin-when-cross-origin"

CUR="$BASE/en/?rollouts=512&gpus=16"
hx=(-H 'Cookie: lang=en' -H 'HX-Request: true' -H "HX-Current-URL: $CUR")
s=$(get "$LAB" "${hx[@]}"); c1=$(header X-Cache-Status); body1=$(cat "$H.body")
s=$(get "$LAB" "${hx[@]}"); c2=$(header X-Cache-Status)
check "partial: MISS then HIT ($c1, $c2)" is "$c1 $c2" "MISS HIT"
check "partial: a fragment, not the page" has_not "$body1" "<html"
check "partial: says what moved (Host kept, so HX-Current-URL is trusted)" has "$body1" 'data-moved="'
s=$(get "$LAB" "${hx[@]}" -H 'HX-History-Restore-Request: true')
check "history restore after a cached partial: the full page" has "$(cat "$H.body")" "<html"
s=$(get "$LAB" -H 'Cookie: lang=en' -H 'HX-Request: true' -H 'HX-Boosted: true')
check "boosted after a cached partial: the full page" has "$(cat "$H.body")" "<html"
s=$(get "$LAB" -H 'Cookie: lang=en' -H 'HX-Request: true' -H "HX-Current-URL: $BASE/en/?rollouts=64&gpus=16"); c4=$(header X-Cache-Status)
check "partial from another state: its own variant ($c4)" is "$c4" "MISS"

s=$(get "/api/evaluate?gpus=16"); c1=$(header X-Cache-Status); s2=$(get "/api/evaluate?gpus=16"); c2=$(header X-Cache-Status)
check "api: 200, never stored nor looked up ('$c1', '$c2')" is "$s $s2 $c1$c2" "200 200 "
s=$(get "/api/plan?max_gpus=16"); c1=$(header X-Cache-Status); s2=$(get "/api/plan?max_gpus=16"); c2=$(header X-Cache-Status)
check "api/plan: stored, HIT the second time ('$c1', '$c2')" is "$s $s2 $c1 $c2" "200 200 MISS HIT"
s=$(get "/en/plan?max_gpus=16"); s=$(get "/en/plan?max_gpus=16"); c2=$(header X-Cache-Status)
check "the planner's page: HIT the second time ($c2)" is "$s $c2" "200 HIT"
s=$(get "/healthz"); c1=$(header X-Cache-Status)
check "healthz: 200, not through the cache ('$c1')" is "$s $c1" "200 "
s=$(get "/api/evaluate?gpus=0")
check "api 422 through nginx, with the app's CSP" is "$s $(grep -ci '^content-security-policy:' "$H")" "422 1"
s=$(get "/en/tutorial"); s=$(get "/en/tutorial"); c2=$(header X-Cache-Status)
check "tutorial: HIT the second time ($c2)" is "$c2" "HIT"
s=$(get "/en/no-such-page"); s2=$(get "/en/no-such-page"); c2=$(header X-Cache-Status)
check "404: HTML page in English, never stored ($s $c2)" is "$s $c2 $(grep -c '<html lang="en"' "$H.body")" "404 MISS 1"
s=$(get "/en/?rollouts=$(printf '7%.0s' $(seq 1 10240))" -H 'Cookie: lang=en')
check "10 kB value through nginx: 200 with a notice" is "$s $(grep -c 'class="notices"' "$H.body")" "200 1"
s=$(get "/en/" -I -H 'Cookie: lang=en')
check "HEAD through nginx: 200 (nginx asks the app with GET)" is "$s" "200"

for p in "/static/../app/main.py" "/static/%2e%2e/main.py" "/static/..%2fmain.py" "/static/%2e%2e%2f%2e%2e%2fpyproject.toml" \
         "/static//etc/passwd" "/static/..%5cmain.py" "/static/%252e%252e/main.py" "/static/../../../../etc/passwd"; do
    s=$(get "$p")
    leak=$(grep -c 'root:x:0\|from app import\|\[project\]' "$H.body")
    check "traversal $p → $s, nothing leaked" is "$leak ${s:0:1}" "0 4"
done

s=$(curl -s -o /dev/null --max-time 5 -w '%{http_code}' -H 'Host: evil.example' "$BASE/api/evaluate/"); rc=$?
check "unknown Host: connection closed (444), no redirect built from it" is "$s" "000"
s=$(get "/en/?x=$(printf 'x%.0s' $(seq 1 40000))")
check "a 40 kB request line: nginx's own $s carries the security headers" is "$s $(header X-Frame-Options) $(header X-Content-Type-Options)" "414 DENY nosniff"
check "… and a CSP" has "$(header Content-Security-Policy)" "frame-ancestors 'none'"

# one app process down: nginx moves on to the other
stop_pid "${PIDS[0]}" TERM
ok=0; for i in $(seq 1 10); do [ "$(get "/api/evaluate?rollouts=$i")" = 200 ] && ok=$((ok+1)); done
check "one app process stopped: 10/10 API calls still 200 ($ok)" is "$ok" "10"
(cd "$ROOT" && exec "$PY" -m app.cli --host 127.0.0.1 --port "$P1" --proxy-headers) >>"$TMP/logs/app-$P1.log" 2>&1 &
PIDS[0]="$!"
up "$P1" || echo "the restarted app process did not come up"
sleep 5   # fail_timeout: let nginx take the restarted process back

echo "checks failed: $FAILED"

# --- a class of learners through nginx (benchmarks/locustfile.py) ------------------------------------------------------
LOAD_RC=0
if [ "$DURATION" != 0 ]; then
    echo "a class of $CLIENTS learners through nginx, ${DURATION} s (benchmarks/locustfile.py)"
    (cd "$ROOT" && timeout $((DURATION + 120)) "$PY" -m locust -f benchmarks/locustfile.py --headless -u "$CLIENTS" \
        -r 16 -t "${DURATION}s" --host "$BASE" --csv "$TMP/class" --only-summary --loglevel WARNING)
    LOAD_RC=$?
    "$PY" "$ROOT/benchmarks/class_load.py" "$TMP/class" --users "$CLIENTS" --run-time "${DURATION}s" \
        --label "two rlhf-lab processes behind deploy/nginx.conf" --json "$TMP/load-nginx.json" || LOAD_RC=1
    [ -n "${LOAD_JSON:-}" ] && cp "$TMP/load-nginx.json" "$LOAD_JSON"
    echo "nginx cache entries: $(find "$TMP/cache" -type f | wc -l)   error log lines: $(wc -l <"$TMP/logs/nginx.error.log")"
fi

[ "$FAILED" = 0 ] || exit "$FAILED"
exit "$LOAD_RC"
