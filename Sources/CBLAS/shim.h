#ifndef HEALTH_CBLAS_SHIM_H
#define HEALTH_CBLAS_SHIM_H
#include <cblas.h>
// OpenBLAS extensions (declared in its cblas.h on Debian; repeated so the module is explicit).
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
char *openblas_get_config(void);
// Software prefetch for the small-batch kernel (a hint; a no-op where unsupported).
static inline void health_prefetch(const void *p) { __builtin_prefetch(p, 0, 2); }
#endif
