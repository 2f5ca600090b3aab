/**
 * benchmarks/full_gc.lox in Java: the same class, fields, sizes, loops and
 * output. Lox numbers are doubles; Lox arrays are Object[]; gc() is
 * System.gc().
 */
public final class FullGC {
    static final class Record {
        double id;
        String name;
        Object[] tags;
        Object[] data;
        Record next;
        Record link;
        double weight;

        Record(double id, double chunk, double slot, Record prev, double width) {
            this.id = id;
            this.name = "rec" + Lox.str(id);
            this.tags = new Object[] {this.name, "note-" + Lox.str(slot) + "-" + Lox.str(chunk)};
            this.data = new Object[(int) width];
            this.data[0] = this.tags;
            Record p = prev;
            for (double k = 1; k < width; k = k + 1) {
                this.data[(int) k] = p;
                if (p != null) {
                    p = p.next;
                }
            }
            this.next = prev;
            this.link = null;
            this.weight = width;
        }
    }

    static double step(double x, double m) {
        double y = x * 5 + 3;
        while (y >= m) {
            y = y - m;
        }
        return y;
    }

    static double mix(double h, double v) {
        h = h * 3 + v;
        while (h >= 999983) {
            h = h - 999983;
        }
        return h;
    }

    public static void main(String[] args) {
        double start = Lox.clock();
        double chunks = 768;
        double slots = 1024;
        double collections = 5;

        Object[] graph = new Object[(int) chunks];
        double id = 0;
        double width = 1;
        for (double c = 0; c < chunks; c = c + 1) {
            Object[] chunk = new Object[(int) slots];
            Record prev = null;
            for (double s = 0; s < slots; s = s + 1) {
                prev = new Record(id, c, s, prev, width);
                chunk[(int) s] = prev;
                id = id + 1;
                width = width + 1;
                if (width > 8) {
                    width = 1;
                }
            }
            graph[(int) c] = chunk;
        }

        double lc = 7;
        double ls = 11;
        for (double c = 0; c < chunks; c = c + 1) {
            Object[] chunk = (Object[]) graph[(int) c];
            for (double s = 0; s < slots; s = s + 1) {
                lc = step(lc, 1024);
                while (lc >= chunks) {
                    lc = step(lc, 1024);
                }
                ls = step(ls, slots);
                ((Record) chunk[(int) s]).link = (Record) ((Object[]) graph[(int) lc])[(int) ls];
            }
        }

        for (double i = 0; i < collections; i = i + 1) {
            System.gc();
        }

        double h = 0;
        double linked = 0;
        for (double c = 0; c < chunks; c = c + 1) {
            Object[] chunk = (Object[]) graph[(int) c];
            for (double s = 0; s < slots; s = s + 1) {
                Record r = (Record) chunk[(int) s];
                Object last = r.data[(int) (r.weight - 1)];
                double back = 0;
                if (last != null && last != r.tags) {
                    back = ((Record) last).id;
                }
                h = mix(h, r.weight + r.name.length() + ((String) r.tags[1]).length() + back);
                h = mix(h, r.link.id);
                linked = mix(linked, r.link.link.name.length() + r.link.weight);
            }
        }
        Lox.print("census: " + Lox.str(chunks * slots) + " records in " + Lox.str(chunks)
                + " chunks, each record with 2 strings and 2 arrays");
        Lox.print("checksum " + Lox.str(h));
        Lox.print("linked " + Lox.str(linked));
        Lox.print(Lox.clock() - start);
    }
}
