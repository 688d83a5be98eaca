/**
 * @file picture.cpp
 * @brief A step's picture as an SVG, drawn from a trace of its own kernel on the CPU
 * (CUDA_ON_CPU_TRACE, runtime.cpp), never from its indexing.
 *
 * picture TITLE < trace > tree-STEP.svg: block 0's tree. Per level (barriers, then __syncwarp()s, passed; reads
 * alone join the writes alone after them): shared memory's first 64 words, a line from each word a thread read to
 * the word it wrote, that thread; s, where all agree; each warp's lanes that wrote (0: idle; a row of reads alone:
 * that read); the worst bank conflict: the most distinct words one of 32 banks of 4-byte words serves to a warp's
 * lanes in one access (each lane's k-th read, or write, of the level).
 *
 * picture TITLE loads < trace > loads-STEP.svg: the elements a few threads load, in order;
 * then who writes and who reads each element of the other buffers: the partial sums, the sum.
 */
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {
struct access {
    unsigned int thread, word;
    char op;
};
struct global {   // a load or store of `count` elements of cudaMalloc's buffer `buffer` from `first`
    unsigned int block, thread, buffer;
    char op;
    size_t first, count;
};
const unsigned int SHOWN = 64, CELL = 13, ROW = 46, LEFT = 60, BAR = 720;

/** Threads 0, 1, 2 and the last of blocks 0, 1 and the last: each a row, its loads of `in` on a bar of n elements. */
int draw_loads(const char *title, const std::vector<global> &list)
{
    const char *names[] = { "in", "out", "scratch_a", "scratch_b", "flush" };   // gpu_slot.c's cudaMalloc order
    std::map<unsigned int, unsigned int> last;                        // block: its last thread
    std::map<std::pair<unsigned int, size_t>, std::string> cells;     // (buffer, element): who writes it, who reads it
    size_t n = 1;
    for (auto &g : list) {
        last[g.block] = std::max(last[g.block], g.thread);
        n = g.buffer == 0 ? std::max(n, g.first + g.count) : n;
        if (g.buffer > 0)
            cells[{ g.buffer, g.first }] += (g.op == 'w' ? "written by block " : ", read by block ") +
                                            std::to_string(g.block) + " thread " + std::to_string(g.thread);
    }
    unsigned int grid = last.empty() ? 0 : last.rbegin()->first + 1, y = 30;
    std::set<std::pair<unsigned int, unsigned int>> shown;
    for (unsigned int b : { 0u, 1u, grid - 1 })
        for (unsigned int t : { 0u, 1u, 2u, last[b] })
            if (b < grid && t <= last[b])
                shown.insert({ b, t });
    printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%zu\" font-family=\"monospace\" font-size=\"11\">\n"
           "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"4\" y=\"16\" font-size=\"13\">%s, n = %zu, %u blocks of "
           "%u threads: which elements a thread loads, in order</text>\n",
           BAR + 140, 70 + 32 * shown.size() + 14 * cells.size(), title, n, grid, last[0] + 1);
    for (auto &[b, t] : shown) {
        unsigned int k = 0;
        std::string text;
        printf("<text x=\"4\" y=\"%u\">block %u thread %u</text>\n<rect x=\"130\" y=\"%u\" width=\"%u\" height=\"8\" fill=\"#eee\"/>\n",
               y + 12, b, t, y + 5, BAR);
        for (auto &g : list)
            if (g.block == b && g.thread == t && g.buffer == 0) {
                double x = 130 + (double)BAR * g.first / n, w = (double)BAR * g.count / n;
                printf("<rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"8\" fill=\"#e8743b\"/>\n<text x=\"%.1f\" y=\"%u\" "
                       "font-size=\"7\">%u</text>\n", x, y + 5, std::max(w, 2.0), x, y + 3, ++k);
                text += std::to_string(g.first) + (g.count > 1 ? "-" + std::to_string(g.first + g.count - 1) : "") + " ";
            }
        printf("<text x=\"130\" y=\"%u\" font-size=\"9\">%s</text>\n", y + 24, text.c_str());
        y += 32;
    }
    printf("<text x=\"4\" y=\"%u\">Its kernel traced on the CPU, where blocks run in order (the last to finish is the last). The other buffers:</text>\n", y += 14);
    for (auto &[key, text] : cells)
        printf("<text x=\"4\" y=\"%u\">%s[%zu]: %s</text>\n", y += 14, names[key.first % 5], key.second, text.c_str());
    printf("</svg>\n");
    return grid == 0;
}
}  // namespace

int main(int argc, char **argv)
{
    std::map<unsigned int, std::vector<access>> levels;
    std::vector<global> globals;
    unsigned int level, thread, word;
    char op, line[128];
    global g;
    while (fgets(line, sizeof line, stdin))
        if (sscanf(line, "g %u %u %c %u %zu %zu", &g.block, &g.thread, &g.op, &g.buffer, &g.first, &g.count) == 6)
            globals.push_back(g);
        else if (sscanf(line, "%u %u %c %u", &level, &thread, &op, &word) == 4)
            levels[level].push_back({ thread, word, op });
    if (argc > 2)
        return draw_loads(argv[1], globals);
    unsigned int warps = 0;   // the block's, busy or not: a level prints each one's lanes
    for (auto &[l, list] : levels)
        for (auto &a : list)
            warps = std::max(warps, a.thread / 32 + 1);
    for (auto it = levels.begin(); it != levels.end() && std::next(it) != levels.end();) {
        auto next = std::next(it);   // reads alone (the last warp's, before a __syncwarp()) and the writes after them
        auto has = [](const std::vector<access> &level, char op) {
            return std::any_of(level.begin(), level.end(), [op](const access &a) { return a.op == op; }); };
        if (!has(it->second, 'w') && !has(next->second, 'r')) {
            next->second.insert(next->second.begin(), it->second.begin(), it->second.end());
            levels.erase(it);
        }
        it = next;
    }
    unsigned int height = 40 + ROW * (unsigned int)levels.size(), width = LEFT + SHOWN * CELL + 640;
    printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" font-family=\"monospace\" font-size=\"11\">\n",
           width, height);
    printf("<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"4\" y=\"16\" font-size=\"13\">%s: block 0's "
           "shared memory, level by level (its kernel traced on the CPU; words 0-%u shown)</text>\n",
           argc > 1 ? argv[1] : "", SHOWN - 1);
    unsigned int row = 0;
    for (auto &[l, list] : levels) {
        unsigned int y = 30 + ROW * row++;
        std::map<unsigned int, std::vector<unsigned int>> reads, writes;   // thread: its words, in order
        for (auto &a : list)
            (a.op == 'w' ? writes : reads)[a.thread].push_back(a.word);
        // who wrote, or who read in a row of reads alone: each warp's lanes, warp 0's, the words marked
        std::vector<unsigned int> lanes(warps);
        std::string warp0(32, '.');
        std::set<unsigned int> marked;
        for (auto &[t, w] : writes.empty() ? reads : writes) {
            lanes[t / 32]++;
            if (t < 32)
                warp0[t] = '#';
            marked.insert(w.begin(), w.end());
        }
        unsigned int worst = writes.empty() && reads.empty() ? 0 : 1;
        for (auto *side : { &reads, &writes }) {
            std::map<std::pair<unsigned int, size_t>, std::map<unsigned int, std::set<unsigned int>>> banks;
            for (auto &[t, words] : *side)
                for (size_t k = 0; k < words.size(); k++)
                    banks[{ t / 32, k }][words[k] % 32].insert(words[k]);
            for (auto &[key, by_bank] : banks)
                for (auto &[bank, words] : by_bank)
                    worst = words.size() > worst ? (unsigned int)words.size() : worst;
        }
        printf("<text x=\"4\" y=\"%u\">level %u</text>\n", y + 22, row - 1);
        for (unsigned int i = 0; i < SHOWN; i++)
            printf("<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"10\" fill=\"%s\" stroke=\"#999\"/>\n", LEFT + i * CELL,
                   y + 30, CELL - 2, !marked.count(i) ? "#eee" : writes.empty() ? "#9ab8f0" : "#e8743b");
        for (auto &[t, w] : writes)   // the thread that wrote, above its word
            if (w[0] < SHOWN)
                printf("<text x=\"%u\" y=\"%u\" font-size=\"7\">%u</text>\n", LEFT + w[0] * CELL, y + 28, t);
        std::set<long> strides;   // s: from the word a thread writes to the other word it reads
        for (auto &[t, w] : writes)
            for (unsigned int from : reads[t])
                if (from != w[0]) {
                    strides.insert((long)from - w[0]);
                    if (from < SHOWN && w[0] < SHOWN)
                        printf("<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#3b6ee8\"/>\n", LEFT + from * CELL + 5,
                               y + 4, LEFT + w[0] * CELL + 5, y + 30);
                }
        std::string active = strides.size() == 1 ? "s = " + std::to_string(*strides.begin()) + ": " : "";
        active += writes.empty() ? "reads only, as in the source: lanes per warp:" : "lanes per warp:";
        for (unsigned int n : lanes)
            active += " " + std::to_string(n);
        unsigned int x = LEFT + SHOWN * CELL + 8;
        printf("<text x=\"%u\" y=\"%u\">%s; bank conflicts: %u-way</text>\n", x, y + 10, active.c_str(), worst);
        printf("<text x=\"%u\" y=\"%u\">warp 0: %s</text>\n", x, y + 24, warp0.c_str());
    }
    printf("</svg>\n");
    return 0;
}
