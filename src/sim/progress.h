/* progress.h - a progress bar on stderr, only when stderr is a terminal. */
#ifndef TP_SIM_PROGRESS_H
#define TP_SIM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

bool sim_progress_wanted(void);
void sim_progress(void *arg, size_t done, size_t total); /* engine callback */

#endif
