/*
 * ps_unicode.c - the Unicode facts of the PuzzleScript tokenizer
 * (ps_unicode.h).
 */
#include "ps_unicode.h"

/* ---- Unicode ---- */

uint32_t ps_utf8_decode(const unsigned char *s, size_t n, size_t *used)
{
	uint32_t c = s[0];
	size_t len = c < 0x80 ? 1 : c < 0xc0 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : 0;
	if (len <= 1 || len > n) {
		*used = 1;
		return c;
	}
	uint32_t cp = c & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*used = 1;
			return c;
		}
		cp = (cp << 6) | (s[i] & 0x3fu);
	}
	*used = len;
	return cp;
}

void ps_utf8_put(struct lk_strbuf *sb, uint32_t cp)
{
	char b[4];
	size_t n;
	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	lk_strbuf_add(sb, b, n);
}

bool ps_is_space(uint32_t c)
{
	return c == ' ' || (c >= 9 && c <= 13) || c == 0xa0 || c == 0x1680 ||
	       (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
	       c == 0x205f || c == 0x3000 || c == 0xfeff;
}

struct range {
	uint32_t lo, hi;
};

/* Letters and numbers (\p{L}, \p{N}) of the scripts games are written in;
 * symbols such as box drawing and arrows are deliberately absent. */
static const struct range word_ranges[] = {
	{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}, {0xaa, 0xaa}, {0xb2, 0xb3},
	{0xb5, 0xb5}, {0xb9, 0xba}, {0xbc, 0xbe}, {0xc0, 0xd6}, {0xd8, 0xf6},
	{0xf8, 0x2c1}, {0x2c6, 0x2d1}, {0x2e0, 0x2e4}, {0x2ec, 0x2ec}, {0x2ee, 0x2ee},
	{0x370, 0x374}, {0x376, 0x377}, {0x37a, 0x37d}, {0x37f, 0x37f}, {0x386, 0x386},
	{0x388, 0x3f5}, {0x3f7, 0x481}, {0x48a, 0x52f}, {0x531, 0x556}, {0x561, 0x587},
	{0x5d0, 0x5ea}, {0x620, 0x64a}, {0x660, 0x669}, {0x904, 0x939}, {0xe01, 0xe30},
	{0x10a0, 0x10ff}, {0x1100, 0x1248}, {0x1e00, 0x1fbc}, {0x1fc2, 0x1fcc},
	{0x1fd0, 0x1fdb}, {0x1fe0, 0x1fec}, {0x1ff2, 0x1ffc}, {0x2070, 0x2071},
	{0x2074, 0x2079}, {0x207f, 0x2089}, {0x2090, 0x209c}, {0x2150, 0x2189},
	{0x2460, 0x249b}, {0x24ea, 0x24ff}, {0x2776, 0x2793}, {0x2c00, 0x2ce4},
	{0x3005, 0x3007}, {0x3021, 0x3029}, {0x3031, 0x3035}, {0x3038, 0x303c},
	{0x3041, 0x3096}, {0x309d, 0x309f}, {0x30a1, 0x30fa}, {0x30fc, 0x30ff},
	{0x3105, 0x312f}, {0x3131, 0x318e}, {0x3400, 0x4dbf}, {0x4e00, 0x9fff},
	{0xa000, 0xa48c}, {0xac00, 0xd7a3}, {0xf900, 0xfa6d}, {0xff10, 0xff19},
	{0xff21, 0xff3a}, {0xff41, 0xff5a}, {0xff66, 0xffdc}, {0x10000, 0x1fbff},
};

bool ps_is_word(uint32_t c)
{
	size_t lo = 0, hi = sizeof word_ranges / sizeof word_ranges[0];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c < word_ranges[mid].lo)
			hi = mid;
		else if (c > word_ranges[mid].hi)
			lo = mid + 1;
		else
			return !(c >= 0x1f000 && c < 0x1fc00); /* emoji are symbols */
	}
	return false;
}

uint32_t ps_lower(uint32_t c)
{
	if (c < 0x80)
		return c >= 'A' && c <= 'Z' ? c + 32 : c;
	if ((c >= 0xc0 && c <= 0xde && c != 0xd7) || (c >= 0x391 && c <= 0x3ab && c != 0x3a2) ||
	    (c >= 0x410 && c <= 0x42f) || (c >= 0xff21 && c <= 0xff3a))
		return c + 32;
	if (c >= 0x400 && c <= 0x40f)
		return c + 80;
	if (c == 0x386)
		return 0x3ac;
	if (c >= 0x388 && c <= 0x38a)
		return c + 37;
	if (c == 0x38c)
		return 0x3cc;
	if (c == 0x38e || c == 0x38f)
		return c + 63;
	if (c >= 0x531 && c <= 0x556)
		return c + 48;
	if (c >= 0x24b6 && c <= 0x24cf)
		return c + 26;
	if (c >= 0x2160 && c <= 0x216f)
		return c + 16;
	/* Latin Extended-A/B, Cyrillic and Latin Extended Additional pair upper
	 * and lower case as even/odd neighbours (with a few exceptions). */
	if ((c >= 0x100 && c <= 0x137) || (c >= 0x14a && c <= 0x177) || (c >= 0x460 && c <= 0x481) ||
	    (c >= 0x48a && c <= 0x4bf) || (c >= 0x4d0 && c <= 0x52f) || (c >= 0x1e00 && c <= 0x1e95) ||
	    (c >= 0x1ea0 && c <= 0x1eff) || (c >= 0x3e2 && c <= 0x3ef))
		return c | 1;
	if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e) || (c >= 0x4c1 && c <= 0x4ce))
		return (c & 1) ? c + 1 : c;
	if (c == 0x178)
		return 0xff;
	return c;
}
