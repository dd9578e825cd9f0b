#!/usr/bin/env bash
# Installs the Debian 12 packages tofa needs to build and test (idempotent, as root).
set -euo pipefail

packages=(
  autoconf automake libtool pkg-config make g++ python3
  libscotch-dev libmunge-dev munge libgtest-dev libcli11-dev nlohmann-json3-dev
  slurm-wlm slurmctld slurmd slurm-client libslurm-dev libpmi2-0-dev
  openmpi-bin libopenmpi-dev mpich libmpich-dev gfortran lammps lammps-examples libpng-dev nettle-dev man-db
  clang libclang-rt-14-dev ccache
  libjson-c-dev libyaml-dev liblz4-dev libpam0g-dev file   # Slurm 24.11/26.05 from source (scripts/slurm-release.sh)
  libsimgrid-dev librsvg2-bin
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present" >&2
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${missing[*]}; run as root (or sudo $0)" >&2
  exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
