import { describe, expect, it } from "vitest";
import { escapeHtml, html, SafeHtml, safeHref } from "../../../report/html.js";

describe("html template", () => {
  it("escapes every interpolated string, in text and in attributes", () => {
    const name = `"><script>alert('x')</script>&`;
    expect(html`<p title="${name}">${name}</p>`.text).toBe(
      "<p title=\"&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;\">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>",
    );
  });

  it("nests SafeHtml unescaped, joins lists and drops null, undefined and false", () => {
    const items = ["a<b", "c"].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe("<ul><li>a&lt;b</li><li>c</li></ul>0");
    expect(html`${new SafeHtml("<b>ours</b>")}`.text).toBe("<b>ours</b>");
  });

  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`&<>"'`)).toBe("&amp;&lt;&gt;&quot;&#39;");
  });
});

describe("safeHref", () => {
  it("allows absolute http(s) links only", () => {
    expect(safeHref("https://arxiv.org/abs/1803.09820")).toBe("https://arxiv.org/abs/1803.09820");
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("data:text/html,<script>")).toBeNull();
    expect(safeHref("/relative")).toBeNull();
  });
});
