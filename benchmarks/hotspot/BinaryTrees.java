/**
 * The Lox suite's benchmark/binary_trees.lox in Java: the same class,
 * fields, depths, loops and output. Lox numbers are doubles.
 */
public final class BinaryTrees {
    static final class Tree {
        double item;
        double depth;
        Tree left;
        Tree right;

        Tree(double item, double depth) {
            this.item = item;
            this.depth = depth;
            if (depth > 0) {
                double item2 = item + item;
                depth = depth - 1;
                this.left = new Tree(item2 - 1, depth);
                this.right = new Tree(item2, depth);
            } else {
                this.left = null;
                this.right = null;
            }
        }

        double check() {
            if (this.left == null) {
                return this.item;
            }
            return this.item + this.left.check() - this.right.check();
        }
    }

    public static void main(String[] args) {
        double minDepth = 4;
        double maxDepth = 14;
        double stretchDepth = maxDepth + 1;

        double start = Lox.clock();

        Lox.print("stretch tree of depth:");
        Lox.print(stretchDepth);
        Lox.print("check:");
        Lox.print(new Tree(0, stretchDepth).check());

        Tree longLivedTree = new Tree(0, maxDepth);

        double iterations = 1;
        double d = 0;
        while (d < maxDepth) {
            iterations = iterations * 2;
            d = d + 1;
        }

        double depth = minDepth;
        while (depth < stretchDepth) {
            double check = 0;
            double i = 1;
            while (i <= iterations) {
                check = check + new Tree(i, depth).check() + new Tree(-i, depth).check();
                i = i + 1;
            }

            Lox.print("num trees:");
            Lox.print(iterations * 2);
            Lox.print("depth:");
            Lox.print(depth);
            Lox.print("check:");
            Lox.print(check);

            iterations = iterations / 4;
            depth = depth + 2;
        }

        Lox.print("long lived tree of depth:");
        Lox.print(maxDepth);
        Lox.print("check:");
        Lox.print(longLivedTree.check());
        Lox.print("elapsed:");
        Lox.print(Lox.clock() - start);
    }
}
