/*
 * levelkit.c - the front command.  `levelkit CMD args...` runs the command
 * levelkit-CMD with args, the way git runs git-CMD: the commands are
 * installed under prefixed names because short names such as gen and
 * filter would clash with other programs on PATH.
 *
 * levelkit-CMD is looked for next to the front command itself (its own
 * directory, from /proc/self/exe or argv[0]), then on PATH.  The build tree
 * has levelkit-CMD links beside its unprefixed programs (CMakeLists.txt),
 * so build/release/levelkit works there too.  The command replaces this
 * process (exec), so its exit status and signals reach the caller as they
 * are.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The commands, in the order a pipeline uses them.  This is the one list:
 * --help, --list-commands, the man pages and the bash completion all come
 * from it. */
static const struct command {
	const char *name;
	const char *summary;
} commands[] = {
	{ .name = "gen", .summary = "generate levels, solved and optionally rated" },
	{ .name = "solve", .summary = "solve each level: its solution and its length" },
	{ .name = "rate", .summary = "grade the difficulty of each level" },
	{ .name = "filter", .summary = "keep the levels whose fields satisfy an expression" },
	{ .name = NULL, .summary = NULL },
};

#define PREFIX "levelkit-"

static const struct command *find_command(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* Same layout as the other commands' --help, so that one converter makes
 * every man page (docs/man/lk_help2man.c). */
static void print_help(FILE *fp)
{
	fprintf(fp, "usage: levelkit COMMAND [options] [args...]\n"
		    "   or: levelkit help COMMAND\n\n"
		    "Run a levelkit command: generate, solve, rate and filter puzzle levels\n"
		    "written as plain text.  Each command is also installed as levelkit-COMMAND;\n"
		    "'levelkit help COMMAND' (or 'levelkit COMMAND --help') lists its options.\n\n"
		    "Commands\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(fp, "    %-26s%s\n", c->name, c->summary);
	fprintf(fp, "\nOptions\n"
		    "    -h, --help                show this help\n"
		    "        --version             show the version\n"
		    "        --list-commands       list the commands and summaries, tab-separated\n");
}

static _Noreturn void usage_error(const char *fmt, const char *arg)
{
	fputs("levelkit: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nusage: levelkit COMMAND [options] [args...]\n"
	      "try 'levelkit --help' for the list of commands\n", stderr);
	exit(2);
}

/*
 * The directory of the running executable, without the final slash, into
 * buf; returns 0, or -1 when it cannot be told (no /proc and a bare name
 * in argv[0]: then PATH is searched, which is how the shell found us).
 * /proc/self/exe has symbolic links resolved, so a levelkit linked from
 * ~/bin still finds the commands beside the real file.
 */
static int self_dir(const char *argv0, char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	if (n > 0 && (size_t)n < size - 1) {
		buf[n] = '\0';
	} else {
		if (!argv0 || !strchr(argv0, '/') || strlen(argv0) >= size)
			return -1;
		strcpy(buf, argv0);
	}
	char *slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	if (slash == buf)
		slash[1] = '\0';    /* "/levelkit": the root directory */
	else
		*slash = '\0';
	return 0;
}

/* Run levelkit-CMD with argv[0] = "levelkit-CMD" and the given arguments;
 * returns only on failure. */
static _Noreturn void run_command(const char *argv0, const char *cmd, char **args)
{
	size_t name_len = strlen(PREFIX) + strlen(cmd) + 1;
	char *name = malloc(name_len);
	if (!name) {
		fputs("levelkit: out of memory\n", stderr);
		exit(2);
	}
	snprintf(name, name_len, "%s%s", PREFIX, cmd);
	args[0] = name;

	char dir[4096];
	int err = ENOENT;
	if (self_dir(argv0, dir, sizeof dir) == 0) {
		size_t path_len = strlen(dir) + 1 + name_len;
		char *path = malloc(path_len);
		if (path) {
			snprintf(path, path_len, "%s/%s", dir, name);
			if (access(path, X_OK) == 0) {
				execv(path, args);
				err = errno;
				fprintf(stderr, "levelkit: cannot run %s: %s\n", path, strerror(err));
				exit(126);
			}
			free(path);
		}
	}
	execvp(name, args);
	err = errno;
	if (err == ENOENT)
		fprintf(stderr, "levelkit: cannot run %s: not found next to levelkit (%s) "
				"nor on PATH\n", name, self_dir(argv0, dir, sizeof dir) == 0 ? dir : "?");
	else
		fprintf(stderr, "levelkit: cannot run %s: %s\n", name, strerror(err));
	exit(err == ENOENT ? 127 : 126);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_help(stderr);
		return 2;
	}
	const char *first = argv[1];
	if (strcmp(first, "-h") == 0 || strcmp(first, "--help") == 0 ||
	    (strcmp(first, "help") == 0 && argc == 2)) {
		print_help(stdout);
		return 0;
	}
	if (strcmp(first, "--version") == 0) {
		printf("levelkit %s\n", LEVELKIT_VERSION);
		return 0;
	}
	if (strcmp(first, "--list-commands") == 0) {
		for (const struct command *c = commands; c->name; c++)
			printf("%s\t%s\n", c->name, c->summary);
		return 0;
	}
	if (first[0] == '-')
		usage_error("unknown option '%s'", first);

	if (strcmp(first, "help") == 0) {
		/* levelkit help CMD: the command's own --help */
		if (argc > 3)
			usage_error("help takes one command, not '%s'", argv[3]);
		if (!find_command(argv[2]))
			usage_error("'%s' is not a levelkit command", argv[2]);
		static char help_option[] = "--help";
		char *args[] = { NULL, help_option, NULL };
		run_command(argv[0], argv[2], args);
	}
	if (!find_command(first))
		usage_error("'%s' is not a levelkit command", first);
	/* argv[1..] becomes the command's argv: argv[1] is replaced by its
	 * name, the arguments and the terminating NULL stay where they are. */
	run_command(argv[0], first, argv + 1);
}
