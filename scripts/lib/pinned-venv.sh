# Sourced by scripts/setup-*.sh after steps.sh. `pinned_venv VENV WANTED WHAT DISK_MB PIP_ARGS...` keeps a
# project-local virtual environment whose marker file says what was installed (WANTED: the pins, as text), so a
# second run takes well under a second; otherwise it recreates the environment and installs PIP_ARGS into it.
# The marker is written last, so an interrupted install is redone on the next run.

pinned_venv() {
  local venv="$1" wanted="$2" what="$3" disk_mb="$4"
  shift 4
  local marker="$venv/.installed" python="${PYTHON:-python3}"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$marker" 2>/dev/null)" = "$wanted" ]; then
    echo "${SETUP_NAME}: ${what} ready ($venv)" >&2
    return 0
  fi
  command -v "$python" >/dev/null || fail "find Python" "'$python' is not on PATH" "install Python 3 with venv (apt-get install python3 python3-venv) or set PYTHON to a Python 3.10+"
  rm -rf "$venv"
  step "creating the environment $venv" "install python3-venv (apt-get install python3-venv) or set PYTHON to a Python with venv" "$python" -m venv "$venv"
  step "installing ${what} (under a minute the first time)" \
    "check that PyPI is reachable (HTTPS_PROXY, PIP_INDEX_URL) and that the disk holding .cache/ has ${disk_mb} MB free" \
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
  printf '%s\n' "$wanted" > "$marker"
}
