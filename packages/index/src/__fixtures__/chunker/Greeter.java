package demo;

import java.util.List;

/** Greets people. */
public class Greeter {
    private final String greeting;

    public Greeter(String greeting) {
        this.greeting = greeting;
    }

    @Override
    public String toString() {
        return greeting;
    }
}

interface Named {
    String name();
}
