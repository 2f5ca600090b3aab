/**
 * benchmarks/dom_tree.lox in Java: the same class, fields, sizes, loops and
 * output. Lox numbers are doubles; Lox arrays are Object[].
 */
public final class DomTree {
    static final class Element {
        String tag;
        Object[] attributes;
        String text;
        Object[] children;

        Element(String tag, double depth) {
            this.tag = tag;
            this.attributes = new Object[] {new Object[] {"id", Lox.str(depth)}, new Object[] {"class", "c" + tag}};
            this.text = null;
            double fanout = 8;
            if (depth == 0) {
                this.children = new Object[0];
                this.text = "leaf text " + tag;
            } else {
                this.children = new Object[(int) fanout];
                for (double i = 0; i < fanout; i = i + 1) {
                    this.children[(int) i] = new Element(tag + Lox.str(i), depth - 1);
                }
            }
        }

        double count() {
            double n = 1;
            for (double i = 0; i < this.children.length; i = i + 1) {
                n = n + ((Element) this.children[(int) i]).count();
            }
            return n;
        }
    }

    public static void main(String[] args) {
        double start = Lox.clock();
        Object live = new Object[0];
        double total = 0;
        double keepEvery = 1;
        for (double round = 0; round < 200; round = round + 1) {
            Element doc = new Element("d", 4);
            total = total + doc.count();
            keepEvery = keepEvery - 1;
            if (keepEvery == 0) {
                live = new Object[] {live, doc};
                keepEvery = 8;
            }
        }
        Lox.print(total);
        Lox.print(Lox.clock() - start);
    }
}
