import { parseSource } from "@nyzhi/index";
import { describe, expect, it } from "vitest";
import { analyzePythonFile } from "./analyze-python-file.js";
import type { FileFacts } from "./project-analysis.js";

/** The facts of one Python file, parsed as `analyzeProject` parses it. */
async function factsOf(path: string, lines: string[]): Promise<FileFacts> {
  const facts = await parseSource({ path, content: `${lines.join("\n")}\n` }, (root) =>
    analyzePythonFile(path, root),
  );
  if (!facts) throw new Error(`no grammar for ${path}`);
  return facts;
}

describe("analyzePythonFile", () => {
  it("reads a FastAPI module whole: imports, prefixed routes, models, middleware, main guard", async () => {
    const facts = await factsOf("api/main.py", [
      "from __future__ import annotations",
      "import os.path as osp, sys",
      "from errno import ENOTCONN, \\",
      "    ESHUTDOWN",
      "from . import models",
      "from ..core.db import (Session,",
      "    engine as db_engine)",
      "from fastapi import *",
      "",
      'router = APIRouter(prefix="/items")',
      "app.add_middleware(CORSMiddleware, allow_origins=['*'])",
      "",
      '@router.get("/{item_id}")',
      "async def read_item(item_id: int, user=Depends(get_current_user)):",
      '    """Example: @router.post("/in-docstring")"""',
      "    return item_id",
      "",
      '@router.api_route("/", methods=["GET", "POST"])',
      "def items(): ...",
      "",
      "@app.exception_handler(",
      "    ValidationError",
      ")",
      "async def on_invalid(request, exc): ...",
      "",
      "@dataclass",
      "@total_ordering",
      "class Point:",
      "    x: int",
      "    y: int = 0",
      "    try:",
      "        import numpy",
      "    except ImportError:",
      "        numpy = None",
      "",
      "class Item(BaseModel):",
      "    # name: a comment, not a field",
      "    name: str",
      "    price = Field(gt=0)",
      "    label = 'price'",
      "    def total(self): ...",
      "",
      'if __name__ == "__main__":',
      "    run()",
    ]);
    expect(facts).toEqual({
      file: "api/main.py",
      language: "python",
      imports: [
        "__future__.annotations|__future__",
        "os.path",
        "sys",
        "errno.ENOTCONN|errno",
        "errno.ESHUTDOWN|errno",
        ".models|.",
        "..core.db.Session|..core.db",
        "..core.db.engine|..core.db",
        "fastapi",
        "numpy",
      ],
      importedNames: {},
      endpoints: [
        { method: "GET", path: "/items/{item_id}", file: "api/main.py", line: 13 },
        { method: "GET", path: "/items/", file: "api/main.py", line: 18 },
        { method: "POST", path: "/items/", file: "api/main.py", line: 18 },
      ],
      models: [
        { name: "Point", kind: "dataclass", file: "api/main.py", line: 28, properties: ["x", "y"] },
        { name: "Item", kind: "pydantic", file: "api/main.py", line: 36, properties: ["name", "price"] },
      ],
      middleware: [
        { kind: "middleware", name: "CORSMiddleware", file: "api/main.py", line: 11 },
        { kind: "error-handler", name: "on_invalid", file: "api/main.py", line: 21 },
        { kind: "auth", name: "Depends(get_current_user)", file: "api/main.py", line: 14 },
      ],
      mounts: [],
      isMain: true,
    });
  });

  it("reads Flask blueprints, Django urls and settings, and decorator guards", async () => {
    const flask = await factsOf("shop/views.py", [
      'bp = Blueprint("shop", __name__, url_prefix="/shop")',
      "@bp.before_request",
      "def check_token(): ...",
      '@bp.route("/cart")',
      "@login_required",
      "def cart(): ...",
    ]);
    expect(flask).toMatchObject({
      endpoints: [{ method: "GET", path: "/shop/cart", file: "shop/views.py", line: 4 }],
      middleware: [
        { kind: "auth", name: "check_token", file: "shop/views.py", line: 2 },
        { kind: "auth", name: "@login_required", file: "shop/views.py", line: 5 },
      ],
      isMain: false,
    });
    const urls = await factsOf("site/urls.py", [
      "urlpatterns = [",
      '    path("users/<int:pk>/", views.UserDetail.as_view(), name="user"),',
      '    re_path(r"^feed/$", feed),',
      '    path("api/", include("api.urls")),',
      "]",
    ]);
    expect(urls.endpoints).toEqual([
      { method: "ALL", path: "/users/<int:pk>/", file: "site/urls.py", line: 2 },
      { method: "ALL", path: "/^feed/$", file: "site/urls.py", line: 3 },
    ]);
    const settings = await factsOf("site/settings.py", [
      "MIDDLEWARE = [",
      '    "django.middleware.security.SecurityMiddleware",',
      '    # "debug_toolbar.middleware.DebugToolbarMiddleware",',
      '    "django.contrib.auth.middleware.AuthenticationMiddleware",',
      "]",
    ]);
    expect(settings.middleware).toEqual([
      {
        kind: "middleware",
        name: "django.middleware.security.SecurityMiddleware",
        file: "site/settings.py",
        line: 1,
      },
      {
        kind: "auth",
        name: "django.contrib.auth.middleware.AuthenticationMiddleware",
        file: "site/settings.py",
        line: 1,
      },
    ]);
  });
});
