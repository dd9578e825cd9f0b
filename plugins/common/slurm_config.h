/*
 * slurm_config.h - Slurm's config.h, i.e. the one of the configured Slurm
 * source tree the plugins compile against (configure passes its path as
 * TOFA_SLURM_CONFIG_H, so a config.h of tofa's own can never be picked up).
 * tofa's configure passes PACKAGE_* and VERSION as -D options; Slurm's
 * config.h defines them too, so ours are dropped first. Include it first,
 * as Slurm's own plugins include config.h.
 */
#ifndef TOFA_PLUGINS_SLURM_CONFIG_H
#define TOFA_PLUGINS_SLURM_CONFIG_H

#undef PACKAGE
#undef PACKAGE_BUGREPORT
#undef PACKAGE_NAME
#undef PACKAGE_STRING
#undef PACKAGE_TARNAME
#undef PACKAGE_URL
#undef PACKAGE_VERSION
#undef VERSION

#ifdef TOFA_SLURM_CONFIG_H
#include TOFA_SLURM_CONFIG_H
#else
#include "config.h"
#endif

#endif /* TOFA_PLUGINS_SLURM_CONFIG_H */
