/* SPDX-License-Identifier: MIT */
/*
 * Short names for the loader helpers of workload_impl.h, for the files that
 * parse workload and machine JSON.  Include it last: the names are plain
 * words (fail, get) that no other header may see.
 */
#ifndef EEVDF_WL_SHORT_H
#define EEVDF_WL_SHORT_H

#define fail eevdf__wl_fail
#define nomem eevdf__wl_nomem
#define path_key eevdf__wl_path_key
#define path_index eevdf__wl_path_index
#define path_pop eevdf__wl_path_pop
#define get eevdf__wl_get
#define SHOWN(buf, s) eevdf__wl_shown(buf, sizeof(buf), s)

#endif
