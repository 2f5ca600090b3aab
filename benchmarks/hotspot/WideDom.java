/**
 * benchmarks/wide_dom.lox in Java: the same class, fields, sizes, loops and
 * output. Lox numbers are doubles; Lox arrays are Object[].
 */
public final class WideDom {
    static final class Element {
        String tag;
        Object[] attributes;
        String text;
        Object[] children;

        Element(String tag, double depth, double width) {
            this.tag = tag;
            this.attributes = new Object[] {new Object[] {"id", Lox.str(depth)}, new Object[] {"class", "c" + tag}};
            this.text = null;
            if (depth == 0) {
                this.children = new Object[0];
                this.text = "leaf text " + tag;
            } else {
                this.children = new Object[(int) width];
                for (double i = 0; i < width; i = i + 1) {
                    double w = 4;
                    if (depth == 2) {
                        w = 2;
                    }
                    this.children[(int) i] = new Element(tag + Lox.str(i), depth - 1, w);
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
        for (double round = 0; round < 70; round = round + 1) {
            Element doc = new Element("b", 3, 1024);
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
