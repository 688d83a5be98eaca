/**
 * @file picture.cpp
 * @brief One block's tree as an SVG, drawn from a trace of the step's own kernel on the CPU
 * (CUDA_ON_CPU_TRACE: "LEVEL THREAD r|w WORD" a line), never from its indexing.
 *
 * picture TITLE < trace > step.svg. Per level (the barriers, then __syncwarp()s, passed):
 * the first 64 words of shared memory, a line from each word a thread read to the word it
 * wrote, and that thread's number; the threads that wrote, the active lanes of each warp
 * that did, and the worst bank conflict: the most distinct words one bank serves to a warp's
 * lanes in one access (the k-th read, or write, of each lane in the level), with 32 banks of
 * 4-byte words.
 */
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
const unsigned int SHOWN = 64, CELL = 13, ROW = 46, LEFT = 60;
}  // namespace

int main(int argc, char **argv)
{
    std::map<unsigned int, std::vector<access>> levels;
    unsigned int level, thread, word;
    char op;
    while (scanf("%u %u %c %u", &level, &thread, &op, &word) == 4)
        levels[level].push_back({ thread, word, op });
    unsigned int height = 40 + ROW * (unsigned int)levels.size(), width = LEFT + SHOWN * CELL + 330;
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
        std::map<unsigned int, unsigned int> lanes;   // warp: lanes that wrote
        for (auto &[t, w] : writes)
            lanes[t / 32]++;
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
        printf("<text x=\"4\" y=\"%u\">level %u</text>\n", y + 22, l);
        for (unsigned int i = 0; i < SHOWN; i++) {
            bool written = false;
            for (auto &[t, w] : writes)
                for (unsigned int x : w)
                    written |= x == i;
            printf("<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"10\" fill=\"%s\" stroke=\"#999\"/>\n", LEFT + i * CELL,
                   y + 30, CELL - 2, written ? "#e8743b" : "#eee");
        }
        for (auto &[t, w] : writes)   // the thread that wrote, above its word
            if (w[0] < SHOWN)
                printf("<text x=\"%u\" y=\"%u\" font-size=\"7\">%u</text>\n", LEFT + w[0] * CELL, y + 28, t);
        for (auto &[t, w] : writes)
            for (unsigned int from : reads[t])
                if (from < SHOWN && w[0] < SHOWN && from != w[0])
                    printf("<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"#3b6ee8\"/>\n", LEFT + from * CELL + 5,
                           y + 4, LEFT + w[0] * CELL + 5, y + 30);
        std::string active;
        for (auto &[w, n] : lanes)
            active += (active.empty() ? "" : " ") + std::to_string(n);
        std::string warp0(32, '.');
        for (auto &[t, w] : writes)
            if (t < 32)
                warp0[t] = '#';
        unsigned int x = LEFT + SHOWN * CELL + 8;
        printf("<text x=\"%u\" y=\"%u\">threads that write: %zu; lanes per warp: %s</text>\n", x, y + 10, writes.size(),
               active.empty() ? "none" : active.c_str());
        printf("<text x=\"%u\" y=\"%u\">warp 0: %s</text>\n", x, y + 24, warp0.c_str());
        printf("<text x=\"%u\" y=\"%u\">bank conflicts: %u-way%s</text>\n", x, y + 38, worst,
               writes.empty() ? " (reads only)" : "");
    }
    printf("</svg>\n");
    return 0;
}
