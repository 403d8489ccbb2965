import { Table } from "@chakra-ui/react";

/** An admin table's header row; an empty name heads a column of row actions. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <Table.Header>
      <Table.Row>
        {columns.map((name, i) => (
          <Table.ColumnHeader key={i}>{name}</Table.ColumnHeader>
        ))}
      </Table.Row>
    </Table.Header>
  );
}
