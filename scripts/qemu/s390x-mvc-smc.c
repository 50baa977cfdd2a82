// SPDX-License-Identifier: GPL-2.0
/*
 * Why s390x runs a QEMU of its own (scripts/qemu/s390x-mvc-invalidate.patch):
 * under QEMU 7.2 (Debian 12, TCG), code overwritten by one MVC still runs
 * as it was translated before, when the overwritten block does not start
 * at the first byte MVC wrote. z/Architecture requires a CPU to see its
 * own stores to instructions; QEMU 7.2 invalidates only the translations
 * that cover the first byte of a helper's store ("target/s390x: Fix MVC
 * not always invalidating translation blocks", QEMU 2025). The kernel
 * loads a module with memcpy() (MVC) into memory an unloaded module used:
 * the old module's code then runs, and the suite oopsed in 2 to 3 boots
 * of 5.
 *
 * Build: s390x-linux-gnu-gcc -O2 -static -o s390x-mvc-smc s390x-mvc-smc.c
 * In an s390x guest it prints PASS, or, on QEMU 7.2:
 *   after MVC 42 (want 7) ... FAIL: stale translated code ran after MVC
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef long (*fn_t)(void);

/* nopr filler, then at +16: lghi %r2,@val; br %r14 */
static void fill(unsigned char *buf, int val)
{
	memset(buf, 0x07, 256);
	buf[16] = 0xa7;
	buf[17] = 0x29;
	buf[18] = 0x00;
	buf[19] = val;
	buf[20] = 0x07;
	buf[21] = 0xfe;
}

static long call(unsigned char *code)
{
	asm volatile("bcr 15,0" ::: "memory");	/* serialize */
	return ((fn_t)(code + 16))();
}

static void store_bytes(unsigned char *page, const unsigned char *src)
{
	int i;

	for (i = 0; i < 256; i++)
		((volatile unsigned char *)page)[i] = src[i];
}

int main(void)
{
	static unsigned char src[256];
	unsigned char *page;
	long before, after_mvc, after_bytes;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	fill(src, 42);
	store_bytes(page, src);
	before = call(page);

	/* One 256-byte MVC from page + 0 puts lghi 7 at page + 16. */
	fill(src, 7);
	asm volatile("mvc 0(256,%0),0(%1)" : : "a"(page), "a"(src) : "memory");
	after_mvc = call(page);

	fill(src, 9);
	store_bytes(page, src);
	after_bytes = call(page);

	printf("after byte stores %ld (want 42), after MVC %ld (want 7), after byte stores %ld (want 9)\n",
	       before, after_mvc, after_bytes);
	if (before == 42 && after_mvc == 7 && after_bytes == 9) {
		printf("PASS\n");
		return 0;
	}
	printf("FAIL%s\n", after_mvc == 42 ? ": stale translated code ran after MVC" : "");
	return 1;
}
