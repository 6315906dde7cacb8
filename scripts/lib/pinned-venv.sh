# Sourced by scripts/setup-*.sh after steps.sh. `pinned_venv VENV WANTED WHAT DISK_MB REQUIREMENTS...` keeps a
# project-local virtual environment whose marker file says what was installed (WANTED: the pins, as text), so a
# second run takes well under a second; otherwise it recreates the environment and installs REQUIREMENTS into it
# (`pip install` arguments: pins, or -r FILE). The marker is written last, so an interrupted install is redone on
# the next run.
#
# The installs go through uv, itself pinned in a venv of its own (.cache/uv): on this 2-core machine it installs
# MLflow 3.17 in 10 s where pip takes 98 s, which is most of a fresh clone's setup time (docs/decisions.md).

UV_PIN="uv==0.13.9"
UV_VENV=".cache/uv"

# The pinned uv, installed with pip on first use. The setups run side by side, so the first one installs it under
# a lock and the others wait for it.
uv_bin() {
  local python="${PYTHON:-python3}"
  mkdir -p .cache
  (
    flock 9
    if [ "$(cat "$UV_VENV/.installed" 2>/dev/null)" != "$UV_PIN" ] || [ ! -x "$UV_VENV/bin/uv" ]; then
      rm -rf "$UV_VENV"
      step "creating the environment $UV_VENV" "install python3-venv (apt-get install python3-venv) or set PYTHON to a Python with venv" "$python" -m venv "$UV_VENV"
      step "installing $UV_PIN" "check that PyPI is reachable (HTTPS_PROXY, PIP_INDEX_URL)" \
        "$UV_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$UV_PIN"
      echo "$UV_PIN" > "$UV_VENV/.installed"
    fi
  ) 9> .cache/uv.lock || exit 1
  echo "$UV_VENV/bin/uv"
}

pinned_venv() {
  local venv="$1" wanted="$2" what="$3" disk_mb="$4"
  shift 4
  local marker="$venv/.installed" python="${PYTHON:-python3}" uv
  if [ -x "$venv/bin/python" ] && [ "$(cat "$marker" 2>/dev/null)" = "$wanted" ]; then
    echo "${SETUP_NAME}: ${what} ready ($venv)" >&2
    return 0
  fi
  command -v "$python" >/dev/null || fail "find Python" "'$python' is not on PATH" "install Python 3 with venv (apt-get install python3 python3-venv) or set PYTHON to a Python 3.10+"
  uv="$(uv_bin)"
  rm -rf "$venv"
  step "creating the environment $venv" "install python3-venv (apt-get install python3-venv) or set PYTHON to a Python with venv" \
    "$uv" venv --quiet --python "$python" "$venv"
  step "installing ${what}" \
    "check that PyPI is reachable (HTTPS_PROXY, UV_INDEX_URL) and that the disk holding .cache/ has ${disk_mb} MB free" \
    "$uv" pip install --quiet --python "$venv/bin/python" "$@"
  printf '%s\n' "$wanted" > "$marker"
}
