/*
 * How evenly two threads doing identical work progress over a window as
 * long as a nursery collection (8 ms), on this machine. The busiest
 * thread's share of the iterations is the figure a collector's
 * worker_copied_bytes would show for perfectly balanced work.
 *
 * Each trial starts two threads that meet at a barrier, then each runs a
 * memory-touching loop (random updates in its own 8 MB array) until 8 ms
 * after the barrier. With a spin barrier both threads are running when
 * the window opens; with a sleeping barrier (pthread_barrier_wait) the
 * first to arrive sleeps and is woken by the second, as a GC thread is
 * woken for a collection or after a stall.
 *
 *   gcc -O2 -pthread benchmarks/fairness/fairness.c -o /tmp/fairness
 *   /tmp/fairness            (300 trials of each barrier)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define TRIALS 300
#define WINDOW 0.008
#define WORDS (1 << 20)

static pthread_barrier_t barrier;
static volatile int arrived, sleeping;
static volatile double start;
static long count[2];
static uint64_t *buf[2];

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *work(void *arg) {
	long id = (long)arg;
	uint64_t *b = buf[id], x = 1;
	long c = 0;
	if (sleeping) {
		/* The thread that completes the barrier opens the window. */
		if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
			start = now();
	} else if (__sync_add_and_fetch(&arrived, 1) == 2) {
		start = now();
	}
	while (start == 0)
		;
	double end = start + WINDOW;
	while (now() < end) {
		for (int i = 0; i < 4096; i++) {
			b[(x >> 7) & (WORDS - 1)] += x;
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		}
		c++;
	}
	count[id] = c;
	return 0;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void trials(int sleepingBarrier) {
	double share[TRIALS];
	sleeping = sleepingBarrier;
	for (int t = 0; t < TRIALS; t++) {
		pthread_t a, b;
		arrived = 0;
		start = 0;
		pthread_barrier_init(&barrier, 0, 2);
		pthread_create(&a, 0, work, (void *)0);
		pthread_create(&b, 0, work, (void *)1);
		pthread_join(a, 0);
		pthread_join(b, 0);
		pthread_barrier_destroy(&barrier);
		long most = count[0] > count[1] ? count[0] : count[1];
		share[t] = 100.0 * most / (count[0] + count[1]);
		usleep(20000); /* the CPUs idle between trials, as between collections */
	}
	qsort(share, TRIALS, sizeof share[0], cmp);
	int over = 0;
	for (int t = 0; t < TRIALS; t++)
		over += share[t] > 60;
	printf("%-8s barrier: busiest thread's share median %.1f%%, p90 %.1f%%, p95 %.1f%%, max %.1f%%; above 60%%: %d of %d\n",
	       sleepingBarrier ? "sleeping" : "spin", share[TRIALS / 2], share[TRIALS * 9 / 10], share[TRIALS * 95 / 100],
	       share[TRIALS - 1], over, TRIALS);
}

int main(void) {
	buf[0] = calloc(WORDS, sizeof(uint64_t));
	buf[1] = calloc(WORDS, sizeof(uint64_t));
	trials(0);
	trials(1);
	return 0;
}
