/** @file csv_read.h
 * @brief CSV read back for the tools (report, lab grader, multi-GPU tables): fields, and csv_append()'s rows. */
#ifndef CSV_READ_H
#define CSV_READ_H

#include "results.h"

/** Splits a CSV line into at most `max` fields in place, unquoted: the count, or -1 (an open quote, too many). */
int csv_split(char *line, char **fields, int max);

/** Parses one CSV line written by csv_append(): 0, or -1 for the header or a malformed line. */
int csv_parse_row(const char *line, result_row *row);

/** Reads every row of a CSV file; returns how many (at most max), or -1 if unreadable. */
int csv_read_all(const char *path, result_row *rows, int max);

/** csv_read_all() for a tool that needs a row: the count, or 0 after "TOOL: no rows in 'PATH'". */
int csv_read_some(const char *tool, const char *path, result_row *rows, int max);

/** 1 if any row failed: a tool then exits 1, so make stops on a wrong sum. */
int any_failed(const result_row *rows, int count);

/** The row of a program that left none (it crashed before writing one): FAILED, named after it. */
void missing_row(result_row *row, const char *program);

#endif
