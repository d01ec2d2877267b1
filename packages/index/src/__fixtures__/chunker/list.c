#include <stdlib.h>

typedef struct {
    int value;
} Node;

/* Allocates a node. */
Node *node_new(int value)
{
    Node *node = malloc(sizeof(Node));
    node->value = value;
    return node;
}

#ifdef DEBUG
void node_dump(Node *node) {}
#endif
