/* libtofa-shared-arrays: LD_PRELOAD for recording a run whose arrays do not
 * fit this machine (NPB DT class C: 85 ranks, 226 MB per feature array).
 * Every malloc of at least TOFA_SHARED_MIN bytes (default 16 MiB) maps the
 * same file in /dev/shm, so all such arrays of all ranks share its pages, as
 * SMPI_SHARED_MALLOC does in a simulation: the program computes and
 * communicates every byte it would (the CPU time and the message sizes are
 * real), on contents that the ranks overwrite in each other's arrays (its
 * results are therefore not verified). Smaller blocks are glibc's. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_calloc(size_t, size_t);

#define MAX_BLOCKS 256
static struct { void *at; size_t bytes; } blocks[MAX_BLOCKS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int fd = -1;
static size_t file_bytes, min_bytes;

static void *shared(size_t bytes) {
  pthread_mutex_lock(&lock);
  void *at = NULL;
  if (fd < 0) {
    const char *min = getenv("TOFA_SHARED_MIN");
    min_bytes = min ? strtoull(min, NULL, 10) : (16u << 20);
    const char *path = getenv("TOFA_SHARED_FILE");
    fd = open(path ? path : "/dev/shm/tofa-shared-arrays", O_RDWR | O_CREAT, 0600);
  }
  if (fd >= 0 && bytes >= min_bytes) {
    /* Grown under a lock and never shrunk: ranks allocate different sizes
     * at once, and a file cut below another rank's mapping kills that rank
     * with SIGBUS on its next touch. */
    if (bytes > file_bytes) {
      struct stat st;
      const int grown = flock(fd, LOCK_EX) == 0 && fstat(fd, &st) == 0 &&
                        ((size_t)st.st_size >= bytes || ftruncate(fd, (off_t)bytes) == 0);
      flock(fd, LOCK_UN);
      if (!grown) goto out;
      file_bytes = bytes;
    }
    for (int i = 0; i < MAX_BLOCKS; ++i)
      if (!blocks[i].at) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p != MAP_FAILED) blocks[i].at = p, blocks[i].bytes = bytes, at = p;
        break;
      }
  }
out:
  pthread_mutex_unlock(&lock);
  return at;
}

static int release(void *p) {
  if (!p) return 0;
  pthread_mutex_lock(&lock);
  int found = 0;
  for (int i = 0; i < MAX_BLOCKS && !found; ++i)
    if (blocks[i].at == p) {
      munmap(p, blocks[i].bytes);
      blocks[i].at = NULL;
      found = 1;
    }
  pthread_mutex_unlock(&lock);
  return found;
}

void *malloc(size_t bytes) {
  void *p = bytes >= (16u << 10) && (min_bytes == 0 || bytes >= min_bytes) ? shared(bytes) : NULL;
  return p ? p : __libc_malloc(bytes);
}

void free(void *p) {
  if (!release(p)) __libc_free(p);
}

void *calloc(size_t n, size_t size) { return __libc_calloc(n, size); }

void *realloc(void *p, size_t bytes) {
  pthread_mutex_lock(&lock);
  size_t old = 0;
  for (int i = 0; i < MAX_BLOCKS; ++i)
    if (p && blocks[i].at == p) old = blocks[i].bytes;
  pthread_mutex_unlock(&lock);
  if (!old) return __libc_realloc(p, bytes);
  void *q = malloc(bytes);
  if (q) memcpy(q, p, old < bytes ? old : bytes);
  free(p);
  return q;
}
