// Request-body fields of Java and Kotlin DTOs: what a client actually sends, under the JSON name it sends.
import { describe, expect, it } from 'vitest';
import { scanJvm } from '../src/inspect/patterns/jvm.js';

const shapesOf = (relPath: string, text: string): Map<string, string[]> => scanJvm(relPath, text).shapes;

describe('Java and Kotlin DTO fields', () => {
  it('reads fields whose annotations share their line, and prefers the @JsonProperty name', () => {
    const text = [
      '@Getter',
      '@Builder',
      'public class UpdateUserParam {',
      '  @Builder.Default',
      '  @Email(message = "should be an email; really")',
      '  private String email = "";',
      '  @Builder.Default private String password = "";',
      '  @NotBlank private String username;',
      '  @JsonProperty("avatar_url") private String image;',
      '  @JsonProperty(value = "bio_text")',
      '  private String bio;',
      '  @JsonIgnore private String internalNote;',
      '  private static final long serialVersionUID = 1L;',
      '}',
    ].join('\n');
    expect(shapesOf('src/main/java/UpdateUserParam.java', text).get('UpdateUserParam')).toEqual(['email', 'password', 'username', 'avatar_url', 'bio_text']);
  });

  it('keeps collections of values and of nested DTOs; drops relations and a JPA entity’s entity collections', () => {
    const dto = 'public class NewArticleParam {\n  private String title;\n  private List<String> tagList;\n  private Set<String> labels;\n  private Map<String, String> attributes;\n  private List<OrderLine> lines;\n}\n';
    expect(shapesOf('src/main/java/NewArticleParam.java', dto).get('NewArticleParam')).toEqual(['title', 'tagList', 'labels', 'attributes', 'lines']);
    const entity = [
      '@Entity',
      'public class Owner {',
      '  @Id @GeneratedValue private Long id;',
      '  private String name;',
      '  @OneToMany(mappedBy = "owner", cascade = CascadeType.ALL)',
      '  private Set<Pet> pets;',
      '  private List<Visit> visits;',
      '  @ElementCollection private List<String> phones;',
      '}',
    ].join('\n');
    expect(shapesOf('src/main/java/Owner.java', entity).get('Owner')).toEqual(['name', 'phones']);
    const document = '@Document(collection = "accounts")\npublic class Account {\n  private List<Item> incomes;\n  @DBRef private List<User> watchers;\n}\n';
    expect(shapesOf('src/main/java/Account.java', document).get('Account')).toEqual(['incomes']);
  });

  it('reads record components with annotations that take arguments, generic types and @JsonProperty names', () => {
    const text = 'public record Signup(@NotBlank @Size(max = 80) String email, @JsonProperty("display_name") String displayName, Map<String, String> attributes, List<String> roles) {}\n';
    expect(shapesOf('src/main/java/Signup.java', text).get('Signup')).toEqual(['email', 'display_name', 'attributes', 'roles']);
  });

  it('reads Kotlin data class properties with defaults, targeted @JsonProperty and generic types', () => {
    const text = 'data class NewOrder(\n  @field:NotBlank val sku: String,\n  @JsonProperty("qty") val quantity: Int = 1,\n  val tags: List<String> = listOf(),\n  val meta: Map<String, String> = mapOf("a" to "b"),\n)\n';
    expect(shapesOf('src/main/kotlin/NewOrder.kt', text).get('NewOrder')).toEqual(['sku', 'qty', 'tags', 'meta']);
  });
});
